// Command passgp-fast-beam scores a binary data file with a passgp-fast
// model on Apache Beam (package score): locally on Beam's Prism runner in
// this process by default, or on any runner Beam's flags name (--runner
// flink, spark, dataflow, universal with --endpoint). See docs/beam.md.
//
//	passgp-fast-beam predict --model M --data F.pgd --out P.csv [--runner R ...]
//
// Every other command is passgp-fast's (package internal/cli, cli.Main),
// with Beam's flags taken out of its command line first and the training
// engines of engines() registered for train --engine:
//
//	passgp-fast-beam train --data F.pgd --model M --engine beam [--workers K] [--runner R ...]
//
// The same binary is the pipeline's worker: a runner that starts it with
// Beam's worker flags (and no command) gets the worker (beam.Init).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/passgp-fast/passgp-fast/internal/cli"
)

// Exit codes, as passgp-fast's.
const (
	exitOK    = 0
	exitError = 1 // bad input data, I/O, a failed pipeline
	exitUsage = 2 // bad command line
)

const usage = `usage: passgp-fast-beam predict --model M --data F.pgd [--out P.csv] [flags] [Beam flags]
       passgp-fast-beam COMMAND [passgp-fast flags] [Beam flags]

predict writes one CSV row per row of the binary data file (passgp-fast
convert): the predicted class and the probability of every class, in the
format of passgp-fast predict. Beam's flags (--runner and the runner's
own) choose where the pipeline runs; without --runner it runs on Beam's
Prism runner in this process. Run passgp-fast-beam predict --help for
every flag. Every other COMMAND (train, eval, convert, ...) is
passgp-fast's; Beam's flags among its flags go to Beam (passgp-fast's
--labels stays passgp-fast's).
`

func main() {
	args := os.Args[1:]
	if !ownCommand(args) {
		os.Exit(runCLI(args, os.Stdout, os.Stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, args, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// engines returns the training engines of train --engine in this program,
// besides cli's built-in local one: beam (beamEngine), with its flags s
// and Beam's runner flags read from the process's flag set.
func engines(s *sharedFlags) map[string]cli.Engine {
	return map[string]cli.Engine{cli.BeamEngine: beamEngine(flag.CommandLine, s)}
}

// ownCommand reports whether args are this program's own command line:
// predict, help or none (Beam's worker, or flags alone); any other
// command is passgp-fast's (runCLI).
func ownCommand(args []string) bool {
	if len(args) == 0 || len(args[0]) == 0 || args[0][0] == '-' {
		return true
	}
	return args[0] == "predict" || args[0] == "help"
}

// cliShared are the pipelines' flags in the process's flag set
// (commandLineShared).
var cliShared *sharedFlags

// commandLineShared registers the pipelines' flags in the process's flag
// set on its first call and returns them.
func commandLineShared() *sharedFlags {
	if cliShared == nil {
		cliShared = registerShared(flag.CommandLine)
	}
	return cliShared
}

// runCLI runs a passgp-fast command: Beam's flags in args go to the
// process's flag set and Beam starts (beam.Init, as run), the rest go to
// cli.Main with engines(). cli.Main handles the signals.
func runCLI(args []string, stdout, stderr io.Writer) int {
	shared := commandLineShared()
	beamArgs, cliArgs := splitArgs(flag.CommandLine, passgpFirst, args)
	flag.CommandLine.SetOutput(stderr)
	flag.CommandLine.Usage = func() {} // a bad Beam flag: its one-line error, exit status 2
	flag.CommandLine.Parse(beamArgs)
	beam.Init()
	return cli.Main(context.Background(), cliArgs, stdout, stderr, engines(shared))
}

// run parses the command line into the process's flag set, which holds
// Beam's flags too, starts Beam (beam.Init: a worker's command line
// makes the process the worker, and beam.Init does not return) and runs
// the command.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := ""
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	fs := flag.CommandLine
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	o := registerPredict(fs, commandLineShared())
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	beam.Init()
	switch cmd {
	case "predict":
		return predict(ctx, o, fs.Args(), beamx.Run, stdout, stderr)
	case "", "help":
		fmt.Fprint(stderr, usage)
		if cmd == "help" {
			return exitOK
		}
		return exitUsage
	}
	fmt.Fprintf(stderr, "passgp-fast-beam: unknown command %q\n%s", cmd, usage)
	return exitUsage
}
