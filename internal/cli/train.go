package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// trainFlags holds the command line of train.
type trainFlags struct {
	df                 dataFlags
	kf                 kernelFlags
	cfg                passgpfast.Config
	modelOut, positive string
	checkpoint, resume string
	test               dataURI
	maxActive, engine  string
	threads            int
	paper, quiet       bool
}

func (t *trainFlags) register(fs *flagSet) {
	c := &t.cfg
	*c = passgpfast.DefaultConfig()
	fs.group("Data")
	t.df.register(fs, true)
	fs.StringVar(&t.modelOut, "model", "", "output model `FILE` (required)")
	fs.StringVar(&t.positive, "positive", "", "train the binary task `LABEL` against the rest")
	fs.StringVar(&c.Scale, "scale", c.Scale, "input scaling stored in the model: auto, minmax, standard or none")
	fs.Var(&t.test, "test", "labelled test data `FILE` (options after ? as --data's): evaluate after training")
	fs.group("Method")
	fs.StringVar(&c.Method, "method", c.Method, "active set method: passgp, fpassgp, ivm, random or full")
	t.kf.register(fs, "", "initial hyperparameters `t1,t2,...` (default: the kernel's start values)")
	fs.IntVar(&c.Init, "init", c.Init, "initial active set size N_init")
	fs.IntVar(&c.Sub, "sub", c.Sub, "number of batches N_sub")
	fs.IntVar(&c.Passes, "passes", 0, "passes N_pass over the data (0: 2 for passgp, 4 for fpassgp)")
	fs.Float64Var(&c.PInc, "p-inc", c.PInc, "passgp: include a point whose predictive probability is below `P`")
	fs.Float64Var(&c.PDel, "p-del", c.PDel, "passgp: delete an active point whose cavity probability exceeds `P`")
	fs.Float64Var(&c.PExc, "p-exc", c.PExc, "fpassgp: fraction of the active set exchanged per batch")
	fs.StringVar(&t.maxActive, "max-active", "auto", "active set size `M`: passgp's budget (auto: 12 sqrt(N), at most 2000; 0: none); fpassgp, ivm, random: the fixed size (auto: --init)")
	fs.BoolVar(&t.paper, "paper", false, "the paper's rules (Algorithm 1): SE kernel unless --kernel, no budget, no FITC pass; the calibration is still fitted (predict --raw: paper eq. 4)")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "random seed (initial active set, batches)")
	fs.group("Advanced")
	fs.IntVar(&c.HypEvery, "hyp-every", c.HypEvery, "optimise the hyperparameters on every `K`-th batch (0: never, keep the initial ones)")
	fs.StringVar(&t.engine, "engine", LocalEngine, "where training runs: local (this process) or beam (Apache Beam, through passgp-fast-beam; a binary data file)")
	fs.IntVar(&t.threads, "threads", 0, "worker and BLAS threads (0: all cores)")
	fs.StringVar(&t.checkpoint, "checkpoint", "", "write a resumable checkpoint `FILE` during training and on Ctrl-C")
	fs.StringVar(&t.resume, "resume", "", "continue training from checkpoint `FILE` (options are taken from it)")
	fs.BoolVar(&t.quiet, "quiet", false, "no progress output")
}

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

// checkFlags checks the flags and resolves them into t.cfg.
func (t *trainFlags) checkFlags() error {
	switch {
	case t.modelOut == "":
		return errUsage("--model FILE is required")
	case t.df.path == "":
		return errUsage("--data FILE is required")
	case t.threads < 0:
		return errUsage("--threads must be >= 0, got %d", t.threads)
	case t.cfg.HypEvery < 0:
		return errUsage("--hyp-every must be >= 0, got %d", t.cfg.HypEvery)
	}
	c := &t.cfg
	if c.HypEvery == 0 {
		// θ is never optimised; the schedule is stored as the default's.
		c.FixedTheta, c.HypEvery = true, passgpfast.DefaultConfig().HypEvery
	}
	if err := t.checkKernel(); err != nil {
		return err
	}
	if t.positive != "" {
		v, err := passgpfast.ParseFloats(t.positive)
		if err != nil || len(v) != 1 {
			return errUsage("--positive: want one label, got %q", t.positive)
		}
		c.Positive = &v[0]
	}
	if err := t.checkSize(); err != nil {
		return err
	}
	if testConfig != nil {
		testConfig(c)
	}
	return nil
}

// testConfig, if set, edits the configuration of every checked command
// line: tests set options of the library's Config that train has no flag
// for (Config.BoundFITC).
var testConfig func(*passgpfast.Config)

// checkKernel resolves --kernel (the SE kernel with --paper when it is
// not given) and --theta.
func (t *trainFlags) checkKernel() error {
	c := &t.cfg
	name, degree, gamma, err := t.kf.parse()
	if err != nil {
		return err
	}
	if name == "" && t.paper {
		name = "se" // the paper's covariance (Section 2)
	}
	c.Kernel, c.Degree, c.Gamma = name, degree, gamma
	if c.Theta, err = passgpfast.ParseFloats(t.kf.theta); err != nil {
		return errUsage("--theta: %v", err)
	}
	if name != "" {
		if _, err := passgpfast.NewKernel(name, c.Theta, degree, gamma, 0); err != nil {
			return err
		}
	}
	return nil
}

// checkSize resolves --max-active and --paper: the budget of passgp (and
// full, which ignores it), or the fixed size of fpassgp, ivm and random.
func (t *trainFlags) checkSize() error {
	c := &t.cfg
	size := passgpfast.AutoMaxActive
	if t.maxActive != "auto" {
		v, err := strconv.Atoi(t.maxActive)
		if err != nil || v < 0 {
			return errUsage("--max-active: want auto or an integer >= 0, got %q", t.maxActive)
		}
		size = v
	}
	m, err := passgp.ParseMethod(c.Method)
	if err != nil {
		return errUsage("--method: want passgp, fpassgp, ivm, random or full, got %q", c.Method)
	}
	switch m {
	case passgp.FPASSGP, passgp.IVM, passgp.Random:
		if size == 0 {
			return errUsage("--max-active: %s keeps a fixed active set of size M >= 1 (auto: --init), got 0", m)
		}
		c.M = max(size, 0) // 0: --init
	default:
		if t.paper && size > 0 {
			return errUsage("--paper has no active set budget; drop --max-active %s", t.maxActive)
		}
		c.MaxActive = size
	}
	if t.paper {
		// Algorithm 1 grows the active set without bound, and so has no
		// budget to bind and no FITC pass.
		c.MaxActive, c.BoundFITC = 0, 0
	}
	return nil
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
		fmt.Fprintf(stdout, "held-out estimate on %s (each predicted without its own label): error %.2f%%, Brier %.4f, NLP %.4f, ECE %.4f\n",
			on, 100*est.Error, est.Brier, est.NLP, est.ECE)
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
