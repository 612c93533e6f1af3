// Command scaling measures passgp-fast's train command (by default with
// its own defaults: PASS-GP with a budget of 12·√N active points, past 2000 only while the first pass's error falls) against N on a seeded noisy task (package synth: 20 features of which 5
// decide the class, 5% of the labels flipped), beside LIBSVM with a small
// cross-validated grid and Platt probabilities (svm-train -b 1) where it
// finishes, and writes a JSON record, a Markdown table and a log-log plot
// of training time against N:
//
//	go run ./bench/scaling --n 10000,100000,1000000 --out docs/results/scaling
//
// Every run is a separate process timed by wall clock, with its peak RSS
// from the kernel (as /usr/bin/time reports them). The test set (20,000
// points, its own seed) is never read before the model is trained.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
	"github.com/passgp-fast/passgp-fast/synth"
)

// Run is one measurement.
type Run struct {
	Tool        string  `json:"tool"` // "passgp-fast" or "libsvm"
	N           int     `json:"n"`
	Seconds     float64 `json:"seconds"`      // training wall time (LIBSVM: grid + final training)
	GridSeconds float64 `json:"grid_seconds"` // LIBSVM's cross-validated grid (part of Seconds)
	MaxRSSGiB   float64 `json:"max_rss_gib"`
	Active      int     `json:"active"` // |A| (LIBSVM: support vectors)
	Error       float64 `json:"error"`
	Brier       float64 `json:"brier"`
	NLP         float64 `json:"nlp"`
	ECE         float64 `json:"ece"`
	Setting     string  `json:"setting"`
	Note        string  `json:"note,omitempty"`
	BayesError  float64 `json:"bayes_error"`
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "scaling:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, log io.Writer) error {
	fs := flag.NewFlagSet("scaling", flag.ContinueOnError)
	ns := fs.String("n", "10000,100000,1000000", "training set sizes `N1,N2,...`")
	out := fs.String("out", "docs/results/scaling", "output `DIR` (scaling.json, scaling.md, scaling.png)")
	work := fs.String("work", "", "scratch `DIR` for the data files (default: a temporary directory)")
	svmMax := fs.Int("svm-max", 100000, "run LIBSVM up to this N")
	svmTimeout := fs.Duration("svm-timeout", 30*time.Minute, "give up LIBSVM's final training after this long")
	gridSub := fs.Int("grid-sub", 5000, "LIBSVM's grid cross-validates on a subsample of this many training points")
	extra := fs.String("train-args", "", "flags for passgp-fast train, space-separated (empty: the CLI's defaults; --paper: the paper's rules)")
	render := fs.Bool("render", false, "only rewrite scaling.md and scaling.png from the --out directory's scaling.json")
	if err := fs.Parse(args); err != nil {
		return err
	}
	task := synth.Task{D: 20, Relevant: 5, Flip: 0.05}
	bayes, _, err := task.BayesError()
	if err != nil {
		return err
	}
	if *render {
		b, err := os.ReadFile(filepath.Join(*out, "scaling.json"))
		if err != nil {
			return err
		}
		var runs []Run
		if err := json.Unmarshal(b, &runs); err != nil {
			return fmt.Errorf("%s: %v", filepath.Join(*out, "scaling.json"), err)
		}
		return write(*out, task, bayes, runs)
	}
	var sizes []int
	for _, s := range strings.Split(*ns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 100 {
			return fmt.Errorf("--n: bad size %q", s)
		}
		sizes = append(sizes, n)
	}
	dir, bin, cleanup, err := libsvm.Workspace(ctx, *work, *out, "scaling")
	if err != nil {
		return err
	}
	defer cleanup()
	testF := filepath.Join(dir, "test.libsvm")
	if err := writeTask(testF, task, 20000, 2); err != nil {
		return err
	}
	_, svmErr := exec.LookPath("svm-train")
	var runs []Run
	for _, n := range sizes {
		trainF := filepath.Join(dir, fmt.Sprintf("train-%d.libsvm", n))
		if err := writeTask(trainF, task, n, 1); err != nil {
			return err
		}
		r, err := runPassGP(ctx, bin, trainF, testF, dir, *extra)
		if err != nil {
			return err
		}
		r.N, r.BayesError = n, bayes
		fmt.Fprintf(log, "passgp-fast N=%d: %.1f s, %.2f GiB, |A| %d, error %.4f, Brier %.4f\n", n, r.Seconds, r.MaxRSSGiB, r.Active, r.Error, r.Brier)
		runs = append(runs, r)
		if svmErr == nil && n <= *svmMax {
			r, err := runSVM(ctx, trainF, testF, dir, *gridSub, *svmTimeout)
			if err != nil {
				fmt.Fprintf(log, "libsvm N=%d: %v\n", n, err)
				r.Note = err.Error()
			}
			r.N, r.BayesError = n, bayes
			fmt.Fprintf(log, "libsvm N=%d: %.1f s (grid %.1f s), %.2f GiB, SVs %d, error %.4f, Brier %.4f\n", n, r.Seconds, r.GridSeconds, r.MaxRSSGiB, r.Active, r.Error, r.Brier)
			runs = append(runs, r)
		}
		os.Remove(trainF)
		if err := write(*out, task, bayes, runs); err != nil {
			return err
		}
	}
	return nil
}

func writeTask(path string, t synth.Task, n int, seed uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := synth.WriteLIBSVM(f, t, n, seed); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func runPassGP(ctx context.Context, bin, trainF, testF, dir, extra string) (Run, error) {
	el, rss, e, err := libsvm.TrainEval(ctx, bin, trainF, testF, filepath.Join(dir, "model.pgp"), strings.Fields(extra)...)
	if err != nil {
		return Run{}, err
	}
	r := Run{Tool: "passgp-fast", Seconds: el.Seconds(), MaxRSSGiB: rss, Error: e.Error, Brier: e.Brier, NLP: e.NLP, ECE: e.ECE,
		Setting: strings.TrimSpace("train " + extra)}
	for _, a := range e.ActiveSize {
		r.Active += a
	}
	return r, nil
}
