package cli

import (
	"bytes"
	"context"
	"errors"
	"github.com/passgp-fast/passgp-fast/synth"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/model"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// buildBinary builds the command once per test process, with blasinit's
// test hooks on (TestVersionKernels).
func buildBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "passgp-fast-bin")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "passgp-fast")
		if out, err := exec.Command("go", "build", "-o", builtBin, "-ldflags", "-X "+blasinitHooks, "github.com/passgp-fast/passgp-fast/cmd/passgp-fast").CombinedOutput(); err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v", buildErr)
	}
	return builtBin
}

// cpuTicks returns the user+system CPU time of process pid in clock ticks
// (/proc/pid/stat fields 14 and 15), or -1 once it has exited.
func cpuTicks(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if f[0] == "Z" {
		return -1
	}
	u, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	return u + st
}

// startSignalled starts bin with args and sends it sig once it has used
// 20 clock ticks of CPU. The returned buffer is stderr; read it after
// Wait.
func startSignalled(t *testing.T, bin string, args []string, sig syscall.Signal) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stderr := new(bytes.Buffer)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for {
		c := cpuTicks(cmd.Process.Pid)
		if c < 0 {
			cmd.Wait()
			t.Fatalf("finished before it could be signalled: %s", stderr.String())
		}
		if c >= 20 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	return cmd, stderr
}

// TestSignalExitCodes runs long commands, signals them once they are
// working (at least 0.2 s of CPU time; see the loop for a process
// signalled before main ran), and checks that they stop with the shell's
// code for the signal (130 for SIGINT, 143 for SIGTERM).
func TestSignalExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	bin := buildBinary(t)
	f := newFixture(t)
	big := filepath.Join(f.dir, "big.libsvm")
	writeLIBSVM(t, big, synth.Bands(21, 2500, 2, 4, synth.BandsNoise))
	for _, tc := range []struct {
		name string
		args []string
		sig  syscall.Signal
		code int
	}{
		{"train full SIGTERM", []string{"train", "--data", big, "--model", filepath.Join(f.dir, "full.pgp"), "--method", "full", "--threads", "1"}, syscall.SIGTERM, 143},
		{"train full SIGINT", []string{"train", "--data", big, "--model", filepath.Join(f.dir, "full2.pgp"), "--method", "full", "--threads", "1"}, syscall.SIGINT, 130},
		{"train passgp SIGINT", []string{"train", "--data", big, "--model", filepath.Join(f.dir, "pass.pgp"), "--threads", "1"}, syscall.SIGINT, 130},
		{"demo SIGTERM", []string{"demo", "--n", "20000", "--threads", "1"}, syscall.SIGTERM, 143},
		{"demo SIGINT", []string{"demo", "--n", "20000", "--threads", "1"}, syscall.SIGINT, 130},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// CPU time used does not prove that main has installed its
			// handler: OpenBLAS's threads spin from the library's
			// constructor on, before Go's main runs. A process that the
			// signal killed with nothing on stderr was signalled too early
			// and is started again; a command that never installs the
			// handler fails every attempt.
			for attempt := 1; ; attempt++ {
				cmd, stderr := startSignalled(t, bin, tc.args, tc.sig)
				// A safety net, not a timing requirement: a command that
				// ignores the signal is killed after a minute and fails.
				timer := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
				err := cmd.Wait()
				timer.Stop()
				if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && stderr.Len() == 0 && attempt < 3 {
					t.Logf("attempt %d: killed by %v before main installed its handler; again", attempt, ws.Signal())
					continue
				}
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
					t.Fatalf("exit: %v (code %d), want %d; stderr:\n%s", err, cmd.ProcessState.ExitCode(), tc.code, stderr.String())
				}
				if !strings.Contains(stderr.String(), "stopping") {
					t.Errorf("no stopping message: %s", stderr.String())
				}
				return
			}
		})
	}
}

// TestSignalEval: every command that reads a data file (eval, predict,
// plot, train), blocked on its input (a FIFO with no data yet),
// is signalled, then its input ends; it exits with the signal's code
// (130 for SIGINT, 143 for SIGTERM), not with the data error.
func TestSignalEval(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := buildBinary(t)
	f := newFixture(t)
	m := filepath.Join(f.dir, "m.pgp")
	if code, _, e := runCLI(t, append([]string{"train", "--data", f.bin, "--model", m}, fast...)...); code != 0 {
		t.Fatalf("train: %s", e)
	}
	for _, tc := range []struct {
		name string
		args []string // the FIFO is appended
	}{
		{"eval", []string{"eval", "--model", m, "--data"}},
		{"predict", []string{"predict", "--model", m, "--data"}},
		{"plot", []string{"plot", "--model", m, "--out", filepath.Join(f.dir, "plots"), "--data"}},
		{"train", []string{"train", "--method", "full", "--model", filepath.Join(f.dir, "full.pgp"), "--data"}},
	} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(tc.name+" "+sig.String(), func(t *testing.T) {
				fifo := filepath.Join(t.TempDir(), "fifo.libsvm")
				if err := syscall.Mkfifo(fifo, 0o600); err != nil {
					t.Skip("no FIFOs here:", err)
				}
				signalFIFO(t, bin, append(tc.args, fifo), fifo, sig)
			})
		}
	}
}

// signalFIFO runs bin with args, which reads the FIFO fifo, sends sig once
// the command has opened it, ends the input once the signal has been
// handled and checks the exit code, 128 + sig.
func signalFIFO(t *testing.T, bin string, args []string, fifo string, sig syscall.Signal) {
	cmd := exec.Command(bin, args...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	stopping := make(chan struct{})
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		buf := make([]byte, 4096)
		seen := false
		for {
			n, err := pipe.Read(buf)
			stderr.Write(buf[:n])
			if !seen && strings.Contains(stderr.String(), "stopping") {
				seen = true
				close(stopping)
			}
			if err != nil {
				if !seen {
					close(stopping)
				}
				return
			}
		}
	}()
	// Opening the FIFO for writing returns once the command has opened it
	// for reading, that is, once main is running.
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	// The input ends once the signal has been handled.
	<-stopping
	w.Close()
	<-copied
	err = cmd.Wait()
	var ee *exec.ExitError
	if want := 128 + int(sig); !errors.As(err, &ee) || ee.ExitCode() != want {
		t.Fatalf("exit: %v, want %d; stderr:\n%s", err, want, stderr.String())
	}
}

// TestHandleSignals: the first signal cancels with its cause, after the
// stopping message is written (main may exit as soon as the context is
// done); a second one, or the grace period, ends the process with the
// code of the signal.
func TestHandleSignals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		second  os.Signal // nil: the grace period expires
		code    int
		forward bool // another program runs (execEngine)
	}{
		{"second signal", syscall.SIGINT, 130, false},
		{"grace", nil, 143, false},
		{"forwarded", syscall.SIGINT, 130, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var forwarded []os.Signal
			if tc.forward {
				signalMu.Lock()
				signalForward = func(s os.Signal) { forwarded = append(forwarded, s) }
				signalMu.Unlock()
				defer func() { signalMu.Lock(); signalForward = nil; signalMu.Unlock() }()
			}
			sigs := make(chan os.Signal, 2)
			ctx, cancel := context.WithCancelCause(context.Background())
			grace := make(chan time.Time, 1)
			exited := make(chan int, 1)
			var stderr bytes.Buffer
			done := make(chan struct{})
			go func() {
				handleSignals(sigs, cancel, &stderr, func(c int) { exited <- c }, func(time.Duration) <-chan time.Time { return grace })
				close(done)
			}()
			sigs <- syscall.SIGTERM
			<-ctx.Done()
			// A program signals are forwarded to says it is stopping itself.
			if strings.Contains(stderr.String(), "stopping") == tc.forward {
				t.Errorf("context done, forwarding %v: stopping message %q", tc.forward, stderr.String())
			}
			if c, ok := signalExit(context.Cause(ctx)); !ok || c != 143 {
				t.Errorf("cause %v: code %d, %v", context.Cause(ctx), c, ok)
			}
			if tc.second != nil {
				sigs <- tc.second
			} else {
				grace <- time.Time{}
			}
			if c := <-exited; c != tc.code {
				t.Errorf("exit code %d, want %d", c, tc.code)
			}
			<-done
			if want := []os.Signal{syscall.SIGTERM, tc.second}; tc.forward && !slices.Equal(forwarded, want) {
				t.Errorf("forwarded %v, want %v", forwarded, want)
			}
		})
	}
	if _, ok := signalExit(context.Canceled); ok {
		t.Error("a plain cancellation taken for a signal")
	}
}

// TestPredictAllCancel: prediction of a file stops at a chunk boundary
// when its context ends.
func TestPredictAllCancel(t *testing.T) {
	f := newFixture(t)
	m := filepath.Join(f.dir, "m.pgp")
	if code, _, e := runCLI(t, append([]string{"train", "--data", f.train, "--model", m}, fast...)...); code != 0 {
		t.Fatalf("train: %s", e)
	}
	mod, err := model.Load(m)
	if err != nil {
		t.Fatal(err)
	}
	big := synth.Bands(5, 3*4096, 3, 3, synth.BandsNoise).Dense()
	clf := passgpfast.NewClassifier(mod)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := clf.Predict(ctx, big); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled prediction: err = %v", err)
	}
	if _, err := clf.Predict(context.Background(), big); err != nil {
		t.Error(err)
	}
}
