package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/plots/figures"
	"github.com/passgp-fast/passgp-fast/synth"
)

// demoResult is the JSON output of demo.
type demoResult struct {
	Train, Test int     `json:"-"`
	Seconds     float64 `json:"seconds"`
	passgpfast.Metrics
}

func runDemo(ctx context.Context, _ invocation, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("demo", "[--classes K] [--dim D] [--n N] [--method M] [--plots DIR] [--json]",
		`Generates a seeded multi-class problem (K curved, overlapping bands in D
dimensions), trains one PASS-GP classifier per class (one against the
rest), evaluates on a held-out test set and prints a summary. Takes seconds.`)
	classes := fs.Int("classes", 5, "number of classes")
	dim := fs.Int("dim", 6, "input dimension (>= 2)")
	n := fs.Int("n", 3000, "training points")
	nTest := fs.Int("test-n", 1000, "test points")
	seed := fs.Uint64("seed", 1, "random seed (data and training)")
	method := fs.String("method", "passgp", "active set method: passgp, fpassgp, ivm, random or full")
	initN := fs.Int("init", 100, "initial active set size N_init")
	hypEvery := fs.Int("hyp-every", 1, "optimise the hyperparameters on every `K`-th batch")
	noise := fs.Float64("noise", synth.BandsNoise, "standard deviation of the noise around the bands")
	plotDir := fs.String("plots", "", "write PNG figures to `DIR`")
	modelOut := fs.String("model", "", "also write the model to `FILE`")
	threads := fs.Int("threads", 0, "worker and BLAS threads (0: all cores)")
	asJSON := fs.Bool("json", false, "print the evaluation as one JSON object")
	quiet := fs.Bool("quiet", false, "no progress output")
	if code, ok := fs.parse(args, stdout, stderr); !ok {
		return code
	}
	switch {
	case *classes < 2 || *classes > 50:
		return usageErr(stderr, "demo", "--classes must be in [2, 50], got %d", *classes)
	case *dim < 2 || *dim > 1000:
		return usageErr(stderr, "demo", "--dim must be in [2, 1000], got %d", *dim)
	case *n < 10*(*classes) || *n > 1000000:
		return usageErr(stderr, "demo", "--n must be in [10*classes, 1e6], got %d", *n)
	case *nTest < 1 || *nTest > 1000000:
		return usageErr(stderr, "demo", "--test-n must be in [1, 1e6], got %d", *nTest)
	case *threads < 0:
		return usageErr(stderr, "demo", "--threads must be >= 0, got %d", *threads)
	case !(*noise >= 0 && *noise <= 10):
		return usageErr(stderr, "demo", "--noise must be in [0, 10], got %v", *noise)
	}
	if *threads > 0 {
		la.SetThreads(*threads)
	}
	train := synth.Bands(*seed, *n, *classes, *dim, *noise)
	test := synth.Bands(*seed+1000003, *nTest, *classes, *dim, *noise)

	cfg := passgpfast.Config{Method: *method, Degree: 9, Init: *initN, Sub: 10, PInc: 0.6, PDel: 0.99, PExc: 0.02, HypEvery: *hypEvery, Seed: *seed, Scale: "none"}
	train.Source = "demo"
	pr := newProgress(stderr, *quiet || *asJSON, 1)
	pr.logf("demo: %d classes of curved bands in %d dimensions, %d training and %d test points; %s one-vs-rest", *classes, *dim, *n, *nTest, *method)
	start := time.Now()
	opts, restore := demoOptions(cfg, *threads, pr)
	defer restore()
	clf, err := passgpfast.FitDataset(ctx, train, opts...)
	pr.done()
	if err != nil {
		return exitFor(stderr, "demo", err)
	}
	elapsed := time.Since(start)
	test.Source = "demo test set"
	met, p, err := clf.Evaluate(ctx, test)
	if err != nil {
		return fail(stderr, "demo", err)
	}
	if err := demoFiles(*modelOut, *plotDir, clf, test, met, p); err != nil {
		return fail(stderr, "demo", err)
	}
	if *asJSON {
		return printJSON(stdout, stderr, "demo", demoResult{Seconds: elapsed.Seconds(), Metrics: *met})
	}
	fmt.Fprintf(stdout, "passgp-fast demo: %d classes, %d features, %d training / %d test points, method %s\n",
		*classes, *dim, *n, *nTest, *method)
	fmt.Fprintf(stdout, "trained %d classifiers in %s; total active set %d of %d points\n\n", len(clf.Model().Binaries), fmtDur(elapsed), sum(met.ActiveSize), *n)
	met.Report(stdout)
	if *plotDir != "" {
		fmt.Fprintf(stdout, "\nfigures written to %s\n", *plotDir)
	}
	return exitOK
}

// demoFiles writes the demo's model to modelOut and its figures to
// plotDir (each skipped when empty).
func demoFiles(modelOut, plotDir string, clf *passgpfast.Classifier, test *data.Dataset, met *passgpfast.Metrics, p *passgpfast.Predictions) error {
	m := clf.Model()
	if modelOut != "" {
		if err := model.Save(modelOut, m); err != nil {
			return err
		}
	}
	if plotDir == "" {
		return nil
	}
	truth, _ := clf.Truth(test.Y, "demo test set")
	if err := figures.Test(plotDir, m, p, truth, met); err != nil {
		return err
	}
	return figures.Training(plotDir, m)
}

func sum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

// demoOptions returns the demo's options: the same library call as
// train's, without checkpoints, with the classes trained side by side on
// single-threaded BLAS where there are several cores (restore undoes the
// BLAS limit).
func demoOptions(cfg passgpfast.Config, threads int, pr *progress) (opts []passgpfast.Option, restore func()) {
	opts = []passgpfast.Option{passgpfast.WithConfig(cfg), passgpfast.WithThreads(threads), passgpfast.WithScaleInPlace(),
		passgpfast.WithStart(pr.size), passgpfast.WithProgress(func(p passgpfast.Progress) { pr.update(p.Classifier, p.Progress) }),
		passgpfast.WithReport(func(r passgpfast.Report) { reportClassifier(pr, r) })}
	restore = func() {}
	if la.Threads() > 1 && cfg.Method != "full" {
		restore = la.LimitBLAS(1)
		opts = append(opts, passgpfast.WithClassesSideBySide())
	}
	return opts, restore
}
