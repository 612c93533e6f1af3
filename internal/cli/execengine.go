package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// findProgram returns the executable name beside this program's own
// executable, or else on PATH. This program itself does not count (the
// Beam program without a beam engine registered would run itself forever).
func findProgram(name string) (string, error) {
	self, _ := os.Executable()
	var found []string
	if self != "" {
		if p, err := exec.LookPath(filepath.Join(filepath.Dir(self), name)); err == nil {
			found = append(found, p)
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		found = append(found, p)
	}
	for _, p := range found {
		if !sameFile(p, self) {
			return p, nil
		}
	}
	if len(found) > 0 {
		return "", fmt.Errorf("--engine %s: %s is this program, which has no %s engine registered", BeamEngine, found[0], BeamEngine)
	}
	return "", fmt.Errorf("--engine %s needs the program %s beside this one or on PATH; install it with: %s", BeamEngine, name, beamInstall)
}

// sameFile reports whether the paths a and b name the same file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil || b == "" {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// execEngine runs the program at path with this program's command line
// line, standard input and the writers stdout and stderr, and returns its
// exit status. Signals reach it once, through handleSignals (it runs in a
// process group of its own, so a terminal's Ctrl-C does not reach it a
// second time directly): it stops as this program would, saving its
// checkpoint. A cancellation of ctx by anything else interrupts it too.
func execEngine(ctx context.Context, path string, line []string, stdout, stderr io.Writer) int {
	cmd := exec.Command(path, line...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	ownProcessGroup(cmd)
	if ctx.Err() != nil {
		return fail(stderr, "train", context.Cause(ctx))
	}
	// Started under signalMu, so that a signal that arrives meanwhile is
	// forwarded once the program runs.
	signalMu.Lock()
	err := cmd.Start()
	if err == nil {
		p := cmd.Process
		signalForward = func(s os.Signal) { p.Signal(s) }
	}
	signalMu.Unlock()
	if err != nil {
		return fail(stderr, "train", err)
	}
	p := cmd.Process
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			// A signal's cancellation was forwarded with the signal.
			var se signalError
			if !errors.As(context.Cause(ctx), &se) {
				interrupt(p)
			}
		case <-done:
		}
	}()
	err = cmd.Wait()
	close(done)
	signalMu.Lock()
	signalForward = nil
	signalMu.Unlock()
	return exitStatus(err, stderr)
}

// exitStatus is the shell's exit status of a program that ended with
// err (cmd.Wait): its exit code, or 128 + the signal that ended it.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return fail(stderr, "train", err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
