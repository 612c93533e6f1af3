package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"time"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/model"
)

func runTrain(ctx context.Context, in invocation, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("train", "--data FILE [--labels FILE] --model OUT [flags]",
		`Trains a Gaussian process classifier (PASS-GP by default; two labels:
binary, more: one per class against the rest), writes a model file and
prints a held-out estimate of the test error. Defaults: docs/method.md.
Figures of the model: passgp-fast plot.`)
	var t trainFlags
	t.register(fs)
	if name := engineArg(args); name == BeamEngine && in.engines[name] == nil && !wantsHelp(args) {
		// The Beam program reads the command line, Beam's flags too.
		path, err := findProgram(beamProgram)
		if err != nil {
			return fail(stderr, "train", err)
		}
		return execEngine(ctx, path, in.line, stdout, stderr)
	}
	if code, ok := fs.parse(args, stdout, stderr); !ok {
		return code
	}
	eng, ok := selectEngine(t.engine, in.engines)
	if !ok {
		return usageErr(stderr, "train", "--engine: unknown engine %q (want %s)", t.engine, engineNames(in.engines))
	}
	code, err := train(ctx, &t, eng, stdout, stderr)
	if err != nil {
		return exitFor(stderr, "train", err)
	}
	return code
}

// prepare checks the flags and loads the checkpoint to resume from (nil:
// none) and the data: a binary data file is opened as a stream (src),
// any other read into memory (ds). An engine other than the local one
// (streamed) needs a binary data file.
func (t *trainFlags) prepare(ctx context.Context, streamed bool) (ds *data.Dataset, src *data.BinarySource, cp *model.Checkpoint, err error) {
	if err := t.checkFlags(); err != nil {
		return nil, nil, nil, err
	}
	if streamed {
		if err := needBinary(t.engine, &t.df); err != nil {
			return nil, nil, nil, err
		}
	}
	if t.resume != "" {
		if cp, err = model.LoadCheckpoint(t.resume); err != nil {
			return nil, nil, nil, err
		}
	}
	if src, err = t.df.stream(ctx); err != nil || src != nil {
		if err == nil {
			if t.asked, err = t.limitStreamThreads(src.Len(), src.Dim()); err != nil {
				src.Close()
				return nil, nil, nil, err
			}
		}
		return nil, src, cp, err
	}
	if ds, err = t.df.load(0); err != nil {
		return nil, nil, nil, err
	}
	if ds.Y == nil {
		return nil, nil, nil, fmt.Errorf("%s: no labels (give --labels FILE for IDX images)", t.df.path)
	}
	if cp != nil {
		if err := cp.CheckData(ds.N, ds.D, ds.Y); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %s: %v", t.df.path, t.resume, err)
		}
	}
	ds.Source = t.df.path
	return ds, nil, cp, nil
}

// streamGCPercent is the garbage collector's target (GOGC) while train
// streams a binary data file.
const streamGCPercent = 25

// checkpointEvery throttles checkpoint writes during training.
var checkpointEvery = passgpfast.DefaultCheckpointEvery

// testHook, if set, is called after every batch ("batch") and every
// finished classifier ("classifier") with the classifier index (tests
// use it to interrupt training).
var testHook func(event string, k int)

// fitOptions are the library options of the command line, with the
// progress display pr.
func (t *trainFlags) fitOptions(cp *model.Checkpoint, pr *progress) []passgpfast.Option {
	opts := []passgpfast.Option{passgpfast.WithConfig(t.cfg), passgpfast.WithThreads(t.threads),
		passgpfast.WithScaleInPlace(),
		passgpfast.WithProgress(func(p passgpfast.Progress) { pr.update(p.Classifier, p.Progress) }),
		passgpfast.WithReport(func(r passgpfast.Report) { reportClassifier(pr, r) }),
		passgpfast.WithStart(func(p passgpfast.Plan) { pr.start(p, t.df.path) }),
	}
	if testHook != nil {
		opts = append(opts, passgpfast.WithStateHook(func(k int) { testHook("batch", k) }))
	}
	if cp != nil {
		opts = append(opts, passgpfast.WithResume(cp))
	}
	if t.checkpoint != "" {
		opts = append(opts, passgpfast.WithCheckpoint(t.checkpoint, checkpointEvery))
	}
	return opts
}

// sideBySide reports whether the classes of a multi-class run train side
// by side, one BLAS thread each (this program's policy): with more than
// one thread, without a checkpoint and for the methods whose active sets
// stay small (small BLAS calls use one core better than two,
// docs/performance.md).
func (t *trainFlags) sideBySide() bool {
	return la.Threads() > 1 && t.checkpoint == "" && t.resume == "" && t.cfg.Method != "full" && t.cfg.Augment == ""
}

// reportClassifier logs a finished classifier and its warnings.
func reportClassifier(pr *progress, r passgpfast.Report) {
	pr.logf("classifier %s: |A| = %d, theta = %s, %s%s", r.Name, r.Active, fmtTheta(r.Theta), fmtDur(r.Elapsed), r.Budget)
	for _, n := range r.Notes {
		pr.logf("classifier %s: %s", r.Name, n)
	}
	for _, w := range r.Warnings {
		pr.warnf("classifier %s: %s", r.Name, w)
	}
	if testHook != nil {
		testHook("classifier", r.Index)
	}
}

// train runs the training of the command line t, on the engine eng (nil:
// the local one).
func train(ctx context.Context, t *trainFlags, eng Engine, stdout, stderr io.Writer) (code int, err error) {
	ds, src, cp, err := t.prepare(ctx, eng != nil)
	if err != nil {
		return 0, err
	}
	var dim, n int
	if src != nil {
		defer src.Close()
		dim, n = src.Dim(), src.Len()
		// A streamed run's heap is mostly long-lived N-vectors (labels,
		// the batch order): collecting at 25% growth instead of Go's
		// 100% keeps the peak near them (N = 10⁸: 7.1 GB peak RSS at
		// 100%) for a few more collections of a heap that changes little.
		if os.Getenv("GOGC") == "" {
			defer debug.SetGCPercent(debug.SetGCPercent(streamGCPercent))
		}
	} else {
		dim, n = ds.D, ds.N
	}
	if t.threads > 0 {
		la.SetThreads(t.threads)
	}
	var test *data.Dataset
	if t.test.path != "" {
		tf := t.df
		tf.dataURI, tf.labels = t.test, ""
		if test, err = tf.load(dim); err != nil {
			return 0, err
		}
		if test.Y == nil {
			return 0, fmt.Errorf("%s: no labels", t.test.path)
		}
	}
	pr := newProgress(stderr, t.quiet, 1)
	if t.asked > 0 {
		pr.logf("--max-mem %.3g GiB leaves room for %d of %d threads; the model is the one more threads would give", t.df.maxMemGiB, t.threads, t.asked)
	}
	opts := t.fitOptions(cp, pr)
	if eng != nil {
		eopts, closeFn, serr := startEngine(ctx, t.engine, eng, t.df.path, t.threads)
		if serr != nil {
			return 0, serr
		}
		defer closeEngine(t.engine, closeFn, &err, stderr)
		opts = append(opts, eopts...)
	}
	restore := func() {}
	if t.sideBySide() {
		// Restored for the evaluation that follows.
		restore = la.LimitBLAS(1)
		opts = append(opts, passgpfast.WithClassesSideBySide())
	}
	var clf *passgpfast.Classifier
	if src != nil {
		clf, err = passgpfast.FitBinary(ctx, src, opts...)
	} else {
		clf, err = passgpfast.FitDataset(ctx, ds, opts...)
	}
	restore()
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			pr.done()
			if t.checkpoint == "" {
				fmt.Fprintln(stderr, "passgp-fast train: interrupted (no --checkpoint given, nothing saved)")
				return 130, nil
			}
			engine := ""
			if t.engine != LocalEngine {
				engine = " --engine " + t.engine
			}
			fmt.Fprintf(stderr, "passgp-fast train: interrupted; checkpoint written to %s (continue with: passgp-fast train --resume %s --data %s --model %s%s)\n",
				t.checkpoint, t.checkpoint, shellWord(t.df.String()), t.modelOut, engine)
			return 130, nil
		}
		return 0, err
	}
	pr.done()
	return t.finish(ctx, clf, n, test, pr, stdout)
}

// finish writes the model, prints the held-out estimate (of the n
// training points) and evaluates on the test data.
func (t *trainFlags) finish(ctx context.Context, clf *passgpfast.Classifier, n int, test *data.Dataset, pr *progress, stdout io.Writer) (int, error) {
	m := clf.Model()
	if err := clf.SaveFile(t.modelOut); err != nil {
		return 0, err
	}
	fmt.Fprintf(stdout, "wrote %s (%s, %d classifier(s), active set sizes %v, %s)\n", t.modelOut, m.Mode, len(m.Binaries), activeSizes(m), fmtDur(time.Since(pr.begin)))
	if est, ok := clf.HeldOut(); ok {
		on := fmt.Sprintf("the %d training points", est.N)
		if est.N < n {
			on = fmt.Sprintf("a random %d of the %d training points", est.N, n)
		}
		// The count as well as the rate: on tens of thousands of points a
		// percentage with two decimals rounds away several errors.
		fmt.Fprintf(stdout, "held-out estimate on %s (each predicted without its own label): error %.2f%% (%d of %d), Brier %.4f, NLP %.4f, ECE %.4f\n",
			on, 100*est.Error, int(math.Round(est.Error*float64(est.N))), est.N, est.Brier, est.NLP, est.ECE)
	}
	printRelevance(stdout, clf)
	if test != nil {
		test.Source = t.test.path
		met, _, err := clf.Evaluate(ctx, test)
		if err != nil {
			return 0, err
		}
		fmt.Fprintf(stdout, "\nevaluation on %s:\n", t.test.path)
		met.Report(stdout)
	}
	return exitOK, nil
}

func activeSizes(m *model.Model) []int {
	s := make([]int, len(m.Binaries))
	for i, b := range m.Binaries {
		s[i] = len(b.Y)
	}
	return s
}
