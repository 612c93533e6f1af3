// Command mlbench runs passgp-fast with train's defaults and LIBSVM with a
// cross-validated grid side by side on public data sets that nobody tuned
// for: the UCI sets of R's mlbench package (Debian's r-cran-mlbench,
// exported with Rscript), each split 70/30 by class with a fixed seed.
// passgp-fast gets the files as they are (train's --scale auto decides);
// LIBSVM gets them through svm-scale, fitted on the training file, as its
// guide asks.
//
//	go run ./bench/mlbench --out docs/results/mlbench
//
// It writes results.json and results.md (the table of docs/results.md).
// Each run is a separate process, timed by wall clock with its peak
// resident memory.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
	"github.com/passgp-fast/passgp-fast/bench/internal/mldata"
	"github.com/passgp-fast/passgp-fast/model"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mlbench:", err)
		os.Exit(1)
	}
}

// Result is one data set's row: the means over its splits, and the
// standard deviations of error and Brier score (PassGPSD, SVMSD; zero for
// one split).
type Result struct {
	Set                        string
	N, Train, Test, D, K, Reps int
	Scale                      string // what train's --scale auto chose
	PassGP, SVM                Run
	PassGPSD, SVMSD            Run
}

// summarise returns the mean of every figure of runs and the standard
// deviation of the error and the Brier score.
func summarise(runs []Run) (mean, sd Run) {
	if len(runs) == 0 {
		return
	}
	n := float64(len(runs))
	for _, r := range runs {
		mean.Seconds += r.Seconds / n
		mean.GridSeconds += r.GridSeconds / n
		mean.MaxRSSGiB = max(mean.MaxRSSGiB, r.MaxRSSGiB)
		mean.Error += r.Error / n
		mean.Brier += r.Brier / n
		mean.NLP += r.NLP / n
		mean.ECE += r.ECE / n
		mean.HeldOut += r.HeldOut / n
		if r.Within > 0 {
			mean.Within++
		}
	}
	mean.Setting = runs[0].Setting
	if len(runs) > 1 {
		for _, r := range runs {
			sd.Error += (r.Error - mean.Error) * (r.Error - mean.Error) / (n - 1)
			sd.Brier += (r.Brier - mean.Brier) * (r.Brier - mean.Brier) / (n - 1)
		}
		sd.Error, sd.Brier = math.Sqrt(sd.Error), math.Sqrt(sd.Brier)
	}
	return mean, sd
}

// Run is one tool's figures on the test split.
type Run struct {
	Seconds, GridSeconds, MaxRSSGiB float64
	Error, Brier, NLP, ECE          float64
	Setting                         string
	// HeldOut is passgp-fast's held-out estimate of the error on the
	// training split (-1: none), and Within the number of splits on which
	// it lies within two standard errors of the test error (heldOutWithin).
	HeldOut float64 `json:",omitempty"`
	Within  int     `json:",omitempty"`
}

// heldOutWithin reports whether the held-out estimate h on nTrain points
// lies within two standard errors of the test error e on nTest points:
// the standard error of h − e, two independent binomial estimates, is
// √(h(1−h)/nTrain + e(1−e)/nTest).
func heldOutWithin(h, e float64, nTrain, nTest int) bool {
	if h < 0 {
		return false
	}
	se := math.Sqrt(h*(1-h)/float64(nTrain) + e*(1-e)/float64(nTest))
	return math.Abs(h-e) <= 2*se
}

func run(ctx context.Context, args []string, log io.Writer) error {
	fs := flag.NewFlagSet("mlbench", flag.ContinueOnError)
	out := fs.String("out", "docs/results/mlbench", "output `DIR` (results.json, results.md)")
	work := fs.String("work", "", "scratch `DIR` (default: a temporary directory)")
	sets := fs.String("sets", strings.Join(mldata.Sets, ","), "mlbench data sets, comma-separated")
	seed := fs.Uint64("seed", 1, "seed of the train/test split")
	noSVM := fs.Bool("no-svm", false, "do not run LIBSVM")
	reps := fs.Int("reps", 5, "train/test splits (seeds seed, seed+1, ...) of the data sets of at most --small-n points; larger ones get one")
	smallN := fs.Int("small-n", 2000, "data sets of at most this many points get --reps splits")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := exec.LookPath("Rscript"); err != nil {
		return fmt.Errorf("Rscript not found: the data come from R's mlbench package (apt-get install r-cran-mlbench)")
	}
	if !*noSVM && !libsvm.Available() {
		return libsvm.ErrNotFound
	}
	dir, bin, cleanup, err := libsvm.Workspace(ctx, *work, *out, "mlbench")
	if err != nil {
		return err
	}
	defer cleanup()
	var res []Result
	for _, name := range strings.Split(*sets, ",") {
		name = strings.TrimSpace(name)
		sd := filepath.Join(dir, name)
		if err := os.MkdirAll(sd, 0o755); err != nil {
			return err
		}
		csvF := filepath.Join(sd, name+".csv")
		if err := mldata.Export(ctx, name, csvF); err != nil {
			return err
		}
		tab, err := mldata.ReadCSV(csvF, name)
		if err != nil {
			return err
		}
		r := Result{Set: name, N: len(tab.Rows), D: tab.D, K: len(tab.Classes), Reps: 1}
		if r.N <= *smallN {
			r.Reps = *reps
		}
		var pg, sv []Run
		for rep := range r.Reps {
			tr, te := tab.Split(*seed+uint64(rep), mldata.TestShare)
			r.Train, r.Test = len(tr), len(te)
			trainF, testF := filepath.Join(sd, "train.libsvm"), filepath.Join(sd, "test.libsvm")
			if err := tab.Write(trainF, tr); err != nil {
				return err
			}
			if err := tab.Write(testF, te); err != nil {
				return err
			}
			p, scale, err := runPassGP(ctx, bin, trainF, testF, sd)
			if err != nil {
				return fmt.Errorf("%s: passgp-fast: %w", name, err)
			}
			if heldOutWithin(p.HeldOut, p.Error, r.Train, r.Test) {
				p.Within = 1
			}
			r.Scale = scale
			pg = append(pg, p)
			if !*noSVM {
				v, err := runSVM(ctx, trainF, testF, sd, r.D)
				if err != nil {
					return fmt.Errorf("%s: LIBSVM: %w", name, err)
				}
				sv = append(sv, v)
			}
		}
		r.PassGP, r.PassGPSD = summarise(pg)
		r.SVM, r.SVMSD = summarise(sv)
		fmt.Fprintf(log, "%s: %d points (%d/%d), %d features, %d classes, %d split(s): passgp-fast %.2f%% (Brier %.4f, %.1f s)",
			name, r.N, r.Train, r.Test, r.D, r.K, r.Reps, 100*r.PassGP.Error, r.PassGP.Brier, r.PassGP.Seconds)
		if len(sv) > 0 {
			fmt.Fprintf(log, ", LIBSVM %.2f%% (Brier %.4f, %.1f s)", 100*r.SVM.Error, r.SVM.Brier, r.SVM.Seconds)
		}
		fmt.Fprintln(log)
		res = append(res, r)
		if err := write(*out, res); err != nil {
			return err
		}
	}
	return nil
}

func runPassGP(ctx context.Context, bin, trainF, testF, dir string) (Run, string, error) {
	m := filepath.Join(dir, "model.pgp")
	el, rss, e, err := libsvm.TrainEval(ctx, bin, trainF, testF, m)
	if err != nil {
		return Run{}, "", err
	}
	scale, err := modelScale(m)
	if err != nil {
		return Run{}, "", err
	}
	return Run{Seconds: el.Seconds(), MaxRSSGiB: rss, Error: e.Error, Brier: e.Brier, NLP: e.NLP, ECE: e.ECE, Setting: "train's defaults", HeldOut: e.HeldOutError}, scale, nil
}

// The grid: C as LIBSVM's guide suggests, γ around its default 1/d.
var (
	gridC     = []float64{1, 10, 100, 1000}
	gridGamma = []float64{0.25, 1, 4, 16} // times 1/d
)

// gridSub bounds the cross-validation's training points.
const gridSub = 5000

// runSVM scales the files with svm-scale (fitted on the training file),
// picks C and γ by 5-fold cross-validation on up to gridSub training
// points (the split is shuffled), trains svm-train -b 1 on all of them and
// scores svm-predict -b 1's probabilities.
func runSVM(ctx context.Context, trainF, testF, dir string, d int) (Run, error) {
	rangeF := filepath.Join(dir, "range")
	trS, teS := filepath.Join(dir, "train.scaled"), filepath.Join(dir, "test.scaled")
	for _, c := range [][]string{{"-s", rangeF, trainF, trS}, {"-r", rangeF, testF, teS}} {
		f, err := os.Create(c[3])
		if err != nil {
			return Run{}, err
		}
		_, _, err = libsvm.Timed(ctx, f, "svm-scale", c[0], c[1], c[2])
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return Run{}, err
		}
	}
	gammas := make([]float64, len(gridGamma))
	for i, g := range gridGamma {
		gammas[i] = g / float64(d)
	}
	f, err := libsvm.GridFit(ctx, trS, teS, dir, gridSub, gridC, gammas, 0)
	return Run{GridSeconds: f.GridSeconds, Seconds: f.GridSeconds + f.TrainSeconds, MaxRSSGiB: f.MaxRSSGiB,
		Error: f.Error, Brier: f.Brier, NLP: f.NLP, ECE: f.ECE,
		Setting: fmt.Sprintf("svm-scale; 5-fold CV over C in %v, gamma in %v/d: C = %g, gamma = %.4g (CV %.2f%%); -b 1", gridC, gridGamma, f.C, f.Gamma, f.CVAccuracy)}, err
}

// modelScale returns the input scaling that train chose for the model
// file m ("none" when it chose none).
func modelScale(m string) (string, error) {
	mod, err := model.Load(m)
	if err != nil {
		return "", err
	}
	var o struct{ Scale string }
	if err := json.Unmarshal(mod.Options, &o); err != nil {
		return "", fmt.Errorf("%s: options: %v", m, err)
	}
	if o.Scale == "" {
		return "none", nil
	}
	return o.Scale, nil
}
