package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
)

func main() {
	// On Ctrl-C or kill, the context stops the running train and run's
	// deferred cleanup removes the scratch directory.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "devsuite:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	k                                  int
	seed, trainSeed                    uint64
	quick, mnist, useSVM, list         bool
	sets, candidate, baseline          string
	jsonOut, work, bin, candBin, cache string
	dataDir, mlbenchDir                string
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	var o options
	fs := flag.NewFlagSet("devsuite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.k, "k", 5, "number of cross-validation folds (at least 2)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the subsamples and the folds")
	fs.Uint64Var(&o.trainSeed, "train-seed", 0, "train's --seed in every column, before its FLAGS (0: train's default)")
	fs.BoolVar(&o.quick, "quick", false, "the small suite (a few minutes): fewer sets, smaller subsamples")
	fs.BoolVar(&o.mnist, "mnist", false, "add MNIST (10,000 of its training images; slow)")
	fs.StringVar(&o.sets, "sets", "", "comma list of sets to run instead of the suite (see --list)")
	fs.BoolVar(&o.list, "list", false, "list the sets and exit")
	fs.StringVar(&o.candidate, "candidate", "", "extra train `FLAGS` of the candidate, split at white space (empty: the defaults again)")
	fs.StringVar(&o.baseline, "baseline", "", "extra train `FLAGS` of a second baseline, shown beside the defaults (empty: none)")
	fs.BoolVar(&o.useSVM, "libsvm", false, "add LIBSVM (svm-scale, 5-fold CV grid over C and gamma, -b 1) as a column; needs svm-train on PATH")
	fs.StringVar(&o.jsonOut, "json", "", "also write the report as JSON to `FILE`")
	fs.StringVar(&o.work, "work", "", "scratch `DIR` for fold files and models (default: a temporary directory, removed)")
	fs.StringVar(&o.cache, "cache", "", "keep every train and predict run under `DIR`, keyed by binary, flags and fold files, and reuse them (default: none)")
	fs.StringVar(&o.candBin, "candidate-bin", "", "passgp-fast `BINARY` of the candidate column (a build of other code; default: --bin's)")
	fs.StringVar(&o.bin, "bin", "", "passgp-fast `BINARY` to run (default: build ./cmd/passgp-fast)")
	fs.StringVar(&o.dataDir, "data-dir", "../shared/data", "`DIR` of usps.train.bz2, ijcnn1.train.bz2 and MNIST's training files")
	fs.StringVar(&o.mlbenchDir, "mlbench-dir", "", "`DIR` of mlbench CSV files NAME.csv (R's write.csv); without one, Rscript exports them (apt-get install r-cran-mlbench)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.k < 2 {
		return nil, fmt.Errorf("--k = %d, want at least 2", o.k)
	}
	if o.useSVM && !libsvm.Available() {
		return nil, libsvm.ErrNotFound
	}
	return &o, nil
}

// columns returns the settings compared, in report order.
func (o *options) columns() []column {
	args := func(flags string) []string {
		a := []string{}
		if o.trainSeed != 0 {
			a = append(a, "--seed", strconv.FormatUint(o.trainSeed, 10))
		}
		return append(a, strings.Fields(flags)...)
	}
	cols := []column{{Name: "defaults", Args: args("")}}
	if o.baseline != "" {
		cols = append(cols, column{Name: "baseline", Args: args(o.baseline)})
	}
	cols = append(cols, column{Name: "candidate", Args: args(o.candidate), Bin: o.candBin})
	if o.useSVM {
		cols = append(cols, column{Name: "libsvm", LIBSVM: true, Args: []string{}})
	}
	return cols
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	sets, err := selectSets(suite(), o.sets, o.quick, o.mnist)
	if err != nil {
		return err
	}
	if o.list {
		listSets(stdout, suite())
		return nil
	}
	t0 := time.Now()
	cfg, cleanup, err := o.setup(ctx, stderr)
	if err != nil {
		return err
	}
	defer cleanup()
	rep := Report{K: o.k, Seed: o.seed, Columns: cfg.columns}
	writeHeader(stdout, cfg.columns, o.k, o.seed)
	for _, s := range sets {
		r, err := runSet(ctx, cfg, s)
		if err != nil {
			return err
		}
		writeText(stdout, r, o.k)
		rep.Sets = append(rep.Sets, r)
	}
	rep.Summaries = summary(rep.Sets)
	rep.WallSec = time.Since(t0).Seconds()
	writeSummary(stdout, rep.Summaries)
	fmt.Fprintf(stdout, "wall time %.0f s\n", rep.WallSec)
	if o.jsonOut != "" {
		return writeJSON(o.jsonOut, rep)
	}
	return nil
}

// setup makes the scratch directory and builds the CLI unless --bin.
func (o *options) setup(ctx context.Context, log io.Writer) (*config, func(), error) {
	cfg := &config{k: o.k, seed: o.seed, bin: o.bin, work: o.work, columns: o.columns(), log: log}
	cleanup := func() {}
	if cfg.work == "" {
		dir, err := os.MkdirTemp("", "devsuite")
		if err != nil {
			return nil, nil, err
		}
		cfg.work, cleanup = dir, func() { os.RemoveAll(dir) }
	} else if err := os.MkdirAll(cfg.work, 0o755); err != nil {
		return nil, nil, err
	}
	if o.cache != "" {
		cfg.cache = newFoldCache(o.cache)
	}
	cfg.env = env{dataDir: o.dataDir, mlbenchDir: o.mlbenchDir, work: cfg.work}
	if cfg.bin == "" {
		bin, err := buildCLI(ctx, cfg.work)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		cfg.bin = bin
	}
	return cfg, cleanup, nil
}

// listSets prints every set with its sizes.
func listSets(w io.Writer, all []Set) {
	for _, s := range all {
		tag := ""
		if s.OptIn {
			tag = " (opt-in)"
		}
		sub, quick := "all", "-"
		if s.Sub > 0 {
			sub = fmt.Sprint(s.Sub)
		}
		switch {
		case s.QuickSub > 0:
			quick = fmt.Sprint(s.QuickSub)
		case s.QuickSub < 0:
			quick = "all"
		}
		fmt.Fprintf(w, "%-20s points: %-6s quick: %-6s %s%s\n  %s\n", s.Name, sub, quick, s.About, tag, s.Source)
	}
}
