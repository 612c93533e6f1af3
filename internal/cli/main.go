package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/la/blasinit"
	"github.com/passgp-fast/passgp-fast/model"
)

// Main is the passgp-fast program: it runs the command line args
// (without the program name), writing to stdout and stderr, and returns
// the process's exit code. It is meant for a main function only: it may
// restart the process with better BLAS kernels (blasinit), and it handles
// SIGINT and SIGTERM for the whole process (the first cancels the command,
// whose training saves its partial model; a second, or signalGrace
// without the command returning, exits the process).
//
// engines are the training engines of train --engine besides the built-in
// local one (nil: none); an entry named local is a programmer error.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer, engines map[string]Engine) int {
	if _, ok := engines[LocalEngine]; ok {
		panic("cli: engine " + LocalEngine + " is built in")
	}
	// OpenBLAS on a virtual machine that hides the CPU model may load
	// kernels several times slower than the CPU allows; this restarts the
	// program once with the right ones (docs/blas.md).
	kernels, err := blasinit.UseBestKernels()
	if err != nil {
		fmt.Fprintf(stderr, "passgp-fast: %v\n", err)
		return exitError
	}
	if kernels.Note != "" {
		fmt.Fprintf(stderr, "passgp-fast: %s\n", kernels.Note)
	}
	blasKernels = kernels
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go handleSignals(sigs, cancel, stderr, os.Exit, time.After)
	code := runWith(ctx, invocation{engines: engines, line: args}, stdout, stderr)
	signalMu.Lock()
	cause := context.Cause(ctx)
	signalMu.Unlock()
	if c, ok := signalExit(cause); ok {
		code = c
	}
	return code
}

// signalMu makes handleSignals's message and its cancellation one step for
// main, which reads the cancellation's cause under it. Without it, a
// command whose input ends once the message is out (a pipe's writer that
// waits for it, as TestSignalEval's) could fail on that input and return
// before the cancellation, and main would exit with the failure's code
// instead of the signal's (TestSignalEval/predict_terminated, once in CI).
var signalMu sync.Mutex

// signalForward, set under signalMu while train runs another program
// (execEngine), receives every signal handleSignals gets; that program
// then says it is stopping.
var signalForward func(os.Signal)

// signalGrace is how long a command may take to stop after the first
// signal (training writes its partial model in that time) before the
// process ends anyway: a call that does not return, such as BLAS stuck
// starting its threads, must not keep the process alive.
const signalGrace = 10 * time.Second

// signalError is the cause of the command context's cancellation when a
// signal arrives.
type signalError struct{ sig os.Signal }

func (e signalError) Error() string { return "interrupted by " + e.sig.String() }

// signalExit returns the shell's exit code for a command ended by the
// signal in cause (130 for SIGINT, 143 for SIGTERM: 128 + the signal
// number), and false when cause is not a signal.
func signalExit(cause error) (int, bool) {
	var se signalError
	if !errors.As(cause, &se) {
		return 0, false
	}
	if s, ok := se.sig.(syscall.Signal); ok {
		return 128 + int(s), true
	}
	return 128 + int(syscall.SIGINT), true
}

// handleSignals waits for the first signal on sigs, says so on stderr and
// then cancels the command's context with it as the cause; a second
// signal, or signalGrace without the command returning, ends the process
// with the signal's exit code. The message comes first: once the context
// is cancelled the command may return and main exit at once, and the
// message would be lost. Both happen under signalMu, so main sees the
// cancellation of any signal whose message is out. It is only ever woken by a real signal: a normal
// exit prints nothing.
func handleSignals(sigs <-chan os.Signal, cancel context.CancelCauseFunc, stderr io.Writer, exit func(int), after func(time.Duration) <-chan time.Time) {
	s := <-sigs
	signalMu.Lock()
	if signalForward != nil {
		signalForward(s)
	} else {
		fmt.Fprintf(stderr, "\npassgp-fast: %v: stopping (training saves its partial model; a second signal ends it at once)\n", s)
	}
	cancel(signalError{s})
	signalMu.Unlock()
	code, _ := signalExit(signalError{s})
	select {
	case s2 := <-sigs:
		signalMu.Lock()
		if signalForward != nil {
			signalForward(s2)
		}
		signalMu.Unlock()
		code, _ = signalExit(signalError{s2})
	case <-after(signalGrace):
		fmt.Fprintf(stderr, "passgp-fast: still running %v after %v; exiting\n", signalGrace, s)
	}
	exit(code)
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // bad input data, I/O, numerical failure
	exitUsage = 2 // bad command line
)

// command is one subcommand.
type command struct {
	name, summary string
	run           func(ctx context.Context, in invocation, args []string, stdout, stderr io.Writer) int
}

// invocation is what a command needs of the program's command line
// besides its own flags.
type invocation struct {
	// engines are the registered training engines (Main).
	engines map[string]Engine
	// line is the whole command line, without the program name, which
	// train passes on to the program of an engine it runs (execEngine).
	line []string
}

var commands []command

func init() {
	commands = []command{
		{"train", "train a classifier and write a model file", runTrain},
		{"predict", "write per-point class probabilities as CSV", runPredict},
		{"eval", "test error, Brier score, NLP, confusion matrix", runEval},
		{"demo", "train and evaluate on a generated multi-class problem", runDemo},
		{"plot", "draw PNG figures for a model on test data", runPlot},
		{"convert", "write data as a binary data file, read many times quickly", runConvert},
	}
}

// runContext executes the command line args (without the program name)
// with no engines but the local one and returns the exit code; output
// goes to stdout and stderr.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWith(ctx, invocation{line: args}, stdout, stderr)
}

// runWith executes the command line in.line.
func runWith(ctx context.Context, in invocation, stdout, stderr io.Writer) int {
	args := in.line
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && args[0] == "help" {
			return runWith(ctx, invocation{engines: in.engines, line: []string{args[1], "--help"}}, stdout, stderr)
		}
		usage(stdout)
		return exitOK
	case "-version", "--version", "version":
		fmt.Fprintln(stdout, versionLine())
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] {
			if !wantsHelp(args[1:]) {
				// OpenBLAS spins forever when it cannot map its buffers
				// or start its threads (a low ulimit -v): fail instead.
				if err := la.Probe(blasProbeTimeout); err != nil {
					return fail(stderr, c.name, err)
				}
			}
			return c.run(ctx, in, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "passgp-fast: unknown command %q (run 'passgp-fast --help')\n", args[0])
	return exitUsage
}

// blasKernels is what blasinit.UseBestKernels reported in main; commands
// run in-process by the tests leave it zero.
var blasKernels blasinit.Kernels

// versionLine is the output of version: the model file format this
// program writes, and the linear algebra it runs on (the BLAS library,
// its kernels and threads, the Gram kernels' instruction set).
func versionLine() string {
	k := blasKernels
	if k.Core == "" {
		k.Core = la.BLASCore()
	}
	return fmt.Sprintf("passgp-fast (model format version %d; BLAS %s, %s, %d threads; Gram kernels %s)",
		model.Version, la.Backend, k, la.BLASThreads(), la.SIMD())
}

// blasProbeTimeout bounds la.Probe's few milliseconds of BLAS calls.
const blasProbeTimeout = 10 * time.Second

// wantsHelp reports whether args ask for a command's help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

func usage(w io.Writer) {
	fmt.Fprint(w, `passgp-fast: Gaussian process classification with predictive active set
selection (PASS-GP / fPASS-GP, Henao & Winther 2012).

Usage: passgp-fast <command> [flags]

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Run 'passgp-fast <command> --help' for the flags of a command.
Data files: LIBSVM/svmlight, CSV or MNIST IDX, plain, .gz or .bz2.
Exit status: 0 success, 1 error, 2 bad command line, 130 (SIGINT) or 143
(SIGTERM) when stopped by a signal; train then writes the partial model.
BLAS kernels: where OpenBLAS picked kernels older than the CPU's (a
virtual machine hiding its model), the program restarts once with the
right ones, checked against pure-Go code; OPENBLAS_CORETYPE set in the
environment is kept, PASSGP_BLAS_AUTO=0 turns this off. 'passgp-fast
version' names the kernels in use (docs/blas.md).
`)
}

// usageErr prints a one-line command-line error and returns exitUsage.
func usageErr(w io.Writer, cmd, format string, args ...any) int {
	fmt.Fprintf(w, "passgp-fast %s: %s\n", cmd, oneLine(fmt.Sprintf(format, args...)))
	return exitUsage
}

// fail prints a one-line error and returns exitError.
func fail(w io.Writer, cmd string, err error) int {
	fmt.Fprintf(w, "passgp-fast %s: %s\n", cmd, oneLine(err.Error()))
	return exitError
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}
