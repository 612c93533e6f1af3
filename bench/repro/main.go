// Command repro reproduces the experiments of Henao & Winther's PASS-GP
// paper (Section 6: USPS, MNIST, IJCNN) with passgp-fast, side by side with
// LIBSVM when svm-train/svm-predict are installed, and writes the measured
// tables and figures:
//
//	go run ./bench/repro --data ../shared/data --out docs/results [--quick] [--reps N] [--only usps,ijcnn,mnist,svm]
//
// It writes docs/results.md (the markdown path is the --out directory with
// ".md" appended unless --md is given), PNG figures and results.json (the
// per-section state) under --out. Each experiment rewrites its own section
// as soon as a part of it finishes, so an interrupted run still leaves
// valid, clearly labelled partial results; sections of experiments not
// selected by --only are kept from earlier runs.
//
// --quick runs a few-minute version on subsamples (fewer digits, fewer
// active set sizes) and says so in every section it writes.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Config holds the command line.
type Config struct {
	Data  string
	Out   string
	MD    string
	Quick bool
	Reps  int
	// FigReps (--fig-reps), when positive and below Reps, caps the
	// repetitions of the parameter sweeps behind the figures (USPS Figures
	// 4 and 6, IJCNN Figure 7): they cost about ten times the main tables.
	FigReps int
	Seed    uint64
	Threads int
	Only    map[string]bool // experiments: usps, ijcnn, mnist; "svm" = LIBSVM part only
	NoSVM   bool
	// MNISTSVMProb runs LIBSVM -b 1 on MNIST too (its -b 1 training
	// takes several times the plain one: most of an hour on 2 cores).
	MNISTSVMProb bool
	// NoMNISTFPass (--no-mnist-fpass) skips MNIST's fPASS-GP, the longest
	// part of the MNIST section (most of an hour on 2 cores).
	NoMNISTFPass bool
	Verbose      bool
	FullAll      bool // full GPC on all ten USPS digits in full mode
	// MNISTScale (--mnist-scale) is the MNIST polynomial kernel's input
	// scale in units of 1/784 (0: mnistScale).
	MNISTScale float64
	Render     bool // only rewrite results.md from results.json
	// Deadline (--deadline): parts that cannot finish before it are
	// skipped with a note, and a running part is stopped at it.
	Deadline time.Time
}

// Mode is "quick" or "full".
func (c *Config) Mode() string {
	if c.Quick {
		return "quick"
	}
	return "full"
}

// want reports whether experiment e runs.
func (c *Config) want(e string) bool { return len(c.Only) == 0 || c.Only[e] }

// wantGP reports whether the GP side of experiments runs (not with --only svm alone).
func (c *Config) wantGP() bool {
	if len(c.Only) == 1 && c.Only["svm"] {
		return false
	}
	return true
}

// wantSVM reports whether the LIBSVM side runs.
func (c *Config) wantSVM() bool { return !c.NoSVM }

// wantExp reports whether dataset experiment e runs (svm alone selects all datasets' SVM parts).
func (c *Config) wantExp(e string) bool {
	if len(c.Only) == 0 {
		return true
	}
	if c.Only[e] {
		return true
	}
	only := true
	for k := range c.Only {
		if k != "svm" {
			only = false
		}
	}
	return only && c.Only["svm"]
}

func parseFlags(args []string) (*Config, error) {
	fs := flag.NewFlagSet("repro", flag.ContinueOnError)
	c := &Config{}
	var only string
	fs.StringVar(&c.Data, "data", "../shared/data", "directory with the datasets (see ../shared/data/README.md)")
	fs.StringVar(&c.Out, "out", "docs/results", "directory for figures and results.json; results.md goes to <out>.md")
	fs.StringVar(&c.MD, "md", "", "markdown file to write (default <out>.md)")
	fs.BoolVar(&c.Quick, "quick", false, "a few-minute version on subsamples")
	fs.IntVar(&c.Reps, "reps", 0, "repetitions with different seeds (0: 1, the paper used 10)")
	fs.IntVar(&c.FigReps, "fig-reps", 0, "repetitions of the figure sweeps (USPS Figures 4 and 6, IJCNN Figure 7); 0: as --reps")
	fs.Uint64Var(&c.Seed, "seed", 1, "base seed; repetition r uses seed+r")
	fs.IntVar(&c.Threads, "threads", 0, "threads (0: all logical CPUs)")
	fs.StringVar(&only, "only", "", "comma-separated subset of usps,ijcnn,mnist,svm (svm alone: only the LIBSVM parts)")
	fs.BoolVar(&c.NoSVM, "no-svm", false, "skip the LIBSVM side-by-side runs")
	fs.BoolVar(&c.MNISTSVMProb, "mnist-svm-prob", false, "also train LIBSVM with Platt probabilities (-b 1) on MNIST (USPS and IJCNN always do; on MNIST it takes most of an hour)")
	fs.BoolVar(&c.NoMNISTFPass, "no-mnist-fpass", false, "skip MNIST's fPASS-GP (M = 2000; most of an hour on 2 cores)")
	fs.BoolVar(&c.Verbose, "v", false, "log progress of every batch")
	fs.BoolVar(&c.Render, "render", false, "only rewrite the markdown from <out>/results.json (no experiments)")
	fs.Float64Var(&c.MNISTScale, "mnist-scale", mnistScale, "input scale g of the MNIST polynomial kernel, in units of 1/784 (bench/mnistscale validates it)")
	fs.BoolVar(&c.FullAll, "full-gpc-all", false, "run the USPS full GPC on all ten digits (default: digits 2 and 4; quick: 2)")
	var deadline string
	fs.StringVar(&deadline, "deadline", "", "wall-clock deadline, HH:MM (UTC, today) or RFC 3339: later parts are skipped, a running one stopped")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if deadline != "" {
		t, err := parseDeadline(deadline, time.Now().UTC())
		if err != nil {
			return nil, err
		}
		c.Deadline = t
	}
	if c.Reps <= 0 {
		c.Reps = 1
	}
	if c.FigReps <= 0 || c.FigReps > c.Reps {
		c.FigReps = c.Reps
	}
	if c.Threads <= 0 {
		c.Threads = runtime.NumCPU()
	}
	if only != "" {
		c.Only = map[string]bool{}
		for _, s := range strings.Split(only, ",") {
			s = strings.ToLower(strings.TrimSpace(s))
			switch s {
			case "usps", "ijcnn", "mnist", "svm":
				c.Only[s] = true
			case "":
			default:
				return nil, fmt.Errorf("--only: unknown experiment %q (want usps, ijcnn, mnist, svm)", s)
			}
		}
	}
	c.Out = filepath.Clean(c.Out)
	if c.MD == "" {
		c.MD = c.Out + ".md"
	}
	return c, nil
}

// Env is what every experiment gets.
type Env struct {
	Cfg   *Config
	Doc   *Doc
	Start time.Time
	// relFig is the figure directory relative to the markdown file.
	relFig string
}

// figPath returns the file path and the markdown-relative path of a figure.
func (e *Env) figPath(name string) (file, rel string) {
	return filepath.Join(e.Cfg.Out, name), filepath.ToSlash(filepath.Join(e.relFig, name))
}

func (e *Env) logf(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "[%7.1fs] %s\n", time.Since(e.Start).Seconds(), fmt.Sprintf(format, a...))
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "repro:", err)
		os.Exit(2)
	}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "repro:", err)
		os.Exit(1)
	}
}

func run(cfg *Config) error {
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return err
	}
	doc, err := OpenDoc(cfg.MD, cfg.Out)
	if err != nil {
		return err
	}
	if cfg.Render {
		return doc.Write()
	}
	doc.Machine = machineInfo()
	doc.Command = "go run ./bench/repro " + strings.Join(os.Args[1:], " ")
	rel, err := filepath.Rel(filepath.Dir(cfg.MD), cfg.Out)
	if err != nil {
		rel = cfg.Out
	}
	env := &Env{Cfg: cfg, Doc: doc, Start: time.Now(), relFig: rel}
	setThreads(cfg.Threads)
	limitMemory()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if !cfg.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, cfg.Deadline)
		defer cancel()
	}

	// Order: USPS, IJCNN, MNIST (cheapest first, so a stopped run keeps the most).
	exps := []struct {
		key string
		fn  func(context.Context, *Env) error
	}{
		{"usps", runUSPS},
		{"ijcnn", runIJCNN},
		{"mnist", runMNIST},
	}
	var errs []string
	for _, x := range exps {
		if !cfg.wantExp(x.key) {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		env.logf("%s: start (%s mode)", x.key, cfg.Mode())
		if err := x.fn(ctx, env); err != nil {
			env.logf("%s: %v", x.key, err)
			errs = append(errs, x.key+": "+err.Error())
		}
		env.logf("%s: done; peak RSS so far %.2f GiB", x.key, peakRSSGiB())
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// parseDeadline parses HH:MM (UTC, on now's day) or RFC 3339.
func parseDeadline(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	hm, err := time.Parse("15:04", s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--deadline %q: want HH:MM (UTC) or RFC 3339", s)
	}
	return time.Date(now.Year(), now.Month(), now.Day(), hm.Hour(), hm.Minute(), 0, 0, time.UTC), nil
}
