package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	passgpfast "github.com/passgp-fast/passgp-fast"
)

// runEngines runs the command line args with the engines registered.
func runEngines(t *testing.T, ctx context.Context, engines map[string]Engine, args ...string) (int, string, string) {
	t.Helper()
	var o, e bytes.Buffer
	code := runWith(ctx, invocation{engines: engines, line: args}, &o, &e)
	return code, o.String(), e.String()
}

// TestEngineRegistry: train --engine NAME calls the registered engine
// with the binary data file and --threads, trains with its options and
// closes it; the engine's errors, a text data file, and an unknown engine
// name fail with one line naming the problem.
func TestEngineRegistry(t *testing.T) {
	f := newFixture(t)
	pgd := filepath.Join(f.dir, "train.pgd")
	if code, _, e := runCLI(t, "convert", "--data", f.train, "--out", pgd); code != 0 {
		t.Fatal(e)
	}
	type call struct {
		path    string
		threads int
		closed  bool
	}
	var calls []*call
	engines := map[string]Engine{
		"test": func(ctx context.Context, path string, threads int) ([]passgpfast.Option, func() error, error) {
			c := &call{path: path, threads: threads}
			calls = append(calls, c)
			return []passgpfast.Option{passgpfast.WithThreads(1)}, func() error { c.closed = true; return nil }, nil
		},
		"broken": func(ctx context.Context, path string, threads int) ([]passgpfast.Option, func() error, error) {
			return nil, nil, errors.New("no workers")
		},
	}
	m := filepath.Join(f.dir, "m.pgp")
	train := append([]string{"train", "--model", m}, fast...)
	for _, c := range []struct {
		name  string
		args  []string
		code  int
		calls int
		msg   string
	}{
		{"local", []string{"--data", pgd}, 0, 0, ""},
		{"registered", []string{"--data", pgd, "--engine", "test", "--threads", "2"}, 0, 1, ""},
		{"text data", []string{"--data", f.train, "--engine", "test"}, 2, 0, "passgp-fast convert"},
		{"engine error", []string{"--data", pgd, "--engine", "broken"}, 1, 0, "--engine broken: no workers"},
		{"unknown", []string{"--data", pgd, "--engine", "spark"}, 2, 0, "local, broken, test, beam"},
	} {
		calls = nil
		os.Remove(m)
		code, out, e := runEngines(t, context.Background(), engines, append(train, c.args...)...)
		if code != c.code || len(calls) != c.calls || !strings.Contains(e, c.msg) {
			t.Errorf("%s: code %d, %d engine calls, stderr %q; want %d, %d, %q", c.name, code, len(calls), e, c.code, c.calls, c.msg)
			continue
		}
		if c.code != 0 {
			if strings.Count(e, "\n") != 1 {
				t.Errorf("%s: not one line: %q", c.name, e)
			}
			continue
		}
		if !strings.Contains(out, "wrote "+m) {
			t.Errorf("%s: no model written: %s", c.name, out)
		}
		for _, k := range calls {
			if k.path != pgd || k.threads != 2 || !k.closed {
				t.Errorf("%s: engine called with %q, %d threads, closed %v; want %q, 2, true", c.name, k.path, k.threads, k.closed, pgd)
			}
		}
	}
}

// fakeBeam writes an executable passgp-fast-beam shell script with body
// into a directory of its own and puts that directory alone on PATH.
func fakeBeam(t *testing.T, body string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for passgp-fast-beam")
	}
	dir := t.TempDir()
	if body != "" {
		if err := os.WriteFile(filepath.Join(dir, beamProgram), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
}

// TestEngineBeamExec: without a registered beam engine, train --engine
// beam runs passgp-fast-beam from PATH with the same command line and
// returns its exit status, interrupts it when the command is cancelled,
// and fails with the install command where it is missing.
func TestEngineBeamExec(t *testing.T) {
	line := []string{"train", "--data", "x.pgd", "--model", "m.pgp", "--engine", "beam"}
	t.Run("runs", func(t *testing.T) {
		fakeBeam(t, `echo "args: $*"; echo "to stderr" >&2; exit 3`+"\n")
		code, out, e := runEngines(t, context.Background(), nil, line...)
		if code != 3 || out != "args: "+strings.Join(line, " ")+"\n" || e != "to stderr\n" {
			t.Errorf("code %d, stdout %q, stderr %q", code, out, e)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		// The script says it is ready once its trap is set; a cancelled
		// command sends it SIGINT, which it reports with exit status 7.
		sleep, err := exec.LookPath("sleep")
		if err != nil {
			t.Skip("no sleep program")
		}
		fakeBeam(t, "trap 'echo interrupted; exit 7' INT\necho ready >&2\nwhile :; do "+sleep+" 0.05; done\n")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			b := make([]byte, 6)
			if n, _ := pr.Read(b); n > 0 {
				cancel()
			}
			io.Copy(io.Discard, pr)
			pr.Close()
		}()
		var o bytes.Buffer
		done := make(chan int, 1)
		go func() { done <- runWith(ctx, invocation{line: line}, &o, pw) }()
		var code int
		select {
		case code = <-done:
		case <-time.After(time.Minute):
			t.Fatal("passgp-fast-beam not interrupted within a minute")
		}
		pw.Close()
		if code != 7 || o.String() != "interrupted\n" {
			t.Errorf("code %d, stdout %q; want 7 and the script's message", code, o.String())
		}
	})
	t.Run("missing", func(t *testing.T) {
		fakeBeam(t, "")
		code, out, e := runEngines(t, context.Background(), nil, line...)
		if code != 1 || out != "" || strings.Count(e, "\n") != 1 || !strings.Contains(e, beamInstall) {
			t.Errorf("code %d, stdout %q, stderr %q; want 1 and one line naming %s", code, out, e, beamInstall)
		}
	})
}
