// Command passgp-fast-beam scores a binary data file with a passgp-fast
// model on Apache Beam (package score): locally on Beam's Prism runner in
// this process by default, or on any runner Beam's flags name (--runner
// flink, spark, dataflow, universal with --endpoint). See docs/beam.md.
//
//	passgp-fast-beam predict --model M --data F.pgd --out P.csv [--runner R ...]
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
)

// Exit codes, as passgp-fast's.
const (
	exitOK    = 0
	exitError = 1 // bad input data, I/O, a failed pipeline
	exitUsage = 2 // bad command line
)

const usage = `usage: passgp-fast-beam predict --model M --data F.pgd [--out P.csv] [flags] [Beam flags]

predict writes one CSV row per row of the binary data file (passgp-fast
convert): the predicted class and the probability of every class, in the
format of passgp-fast predict. Beam's flags (--runner and the runner's
own) choose where the pipeline runs; without --runner it runs on Beam's
Prism runner in this process. Run passgp-fast-beam predict --help for
every flag.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
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
	o := registerPredict(fs)
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
