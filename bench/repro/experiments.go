package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"time"
)

// Hooks for the GP side of each experiment (set in the *_gp.go files).
var (
	gpUSPS  func(ctx context.Context, b *builder, tr, te *Dataset) error
	gpIJCNN func(ctx context.Context, b *builder, tr, te *Dataset) error
	gpMNIST func(ctx context.Context, b *builder, tr, te *Dataset) error
)

func loadUSPS(dir string) (tr, te *Dataset, err error) {
	if tr, err = readLIBSVM(filepath.Join(dir, "usps.train.bz2"), 256); err != nil {
		return
	}
	if te, err = readLIBSVM(filepath.Join(dir, "usps.test.bz2"), 256); err != nil {
		return
	}
	tr.W, tr.H, te.W, te.H = 16, 16, 16, 16
	return
}

func loadIJCNN(dir string) (tr, te *Dataset, err error) {
	if tr, err = readLIBSVM(filepath.Join(dir, "ijcnn1.train.bz2"), 22); err != nil {
		return
	}
	te, err = readLIBSVM(filepath.Join(dir, "ijcnn1.test.bz2"), 22)
	return
}

func loadMNIST(dir string) (tr, te *Dataset, err error) {
	if tr, err = readIDX(filepath.Join(dir, "train-images-idx3-ubyte.gz"), filepath.Join(dir, "train-labels-idx1-ubyte.gz")); err != nil {
		return
	}
	te, err = readIDX(filepath.Join(dir, "t10k-images-idx3-ubyte.gz"), filepath.Join(dir, "t10k-labels-idx1-ubyte.gz"))
	return
}

// svmParallel is the number of concurrent grid-search processes.
func svmParallel(cfg *Config) int {
	p := cfg.Threads
	if p > runtime.NumCPU() {
		p = runtime.NumCPU()
	}
	return max(p, 1)
}

// runExperiment is the common frame: load, subsample in quick mode, the
// LIBSVM part, then the GP part.
func runExperiment(ctx context.Context, env *Env, key, title string,
	load func(string) (*Dataset, *Dataset, error),
	quickN, quickTest int, intro func(tr, te *Dataset) string,
	svm func(tr, te *Dataset) SVMSpec,
	gp func(context.Context, *builder, *Dataset, *Dataset) error) error {

	cfg := env.Cfg
	tr, te, err := load(cfg.Data)
	if err != nil {
		return err
	}
	fullN, fullT := tr.N(), te.N()
	if cfg.Quick {
		tr = tr.Subsample(quickN, cfg.Seed)
		te = te.Subsample(quickTest, cfg.Seed+1)
	}
	head := intro(tr, te)
	if cfg.Quick {
		head = fmt.Sprintf("**Quick mode**: training on a random subsample of %d of %d examples and testing on %d of %d; "+
			"numbers are not comparable to the paper's. ", tr.N(), fullN, te.N(), fullT) + head
	} else {
		head = fmt.Sprintf("Full data: %d training and %d test examples. ", tr.N(), te.N()) + head
	}
	b := newBuilder(env, key, title, head)
	b.declare("gp", "svm", "mem")

	// The LIBSVM part runs once: when the GP side calls b.svm (after its
	// core results, before its expensive extras) or else after the GP side.
	b.svm = func() {
		if b.svmDone || !cfg.wantSVM() || ctx.Err() != nil {
			return
		}
		b.svmDone = true
		if skip, note := env.skipIfLate(ctx, "LIBSVM side by side", 2*time.Minute); skip {
			b.set("svm", note)
			return
		}
		env.logf("%s: LIBSVM side by side", key)
		var m md
		res, err := runSVM(ctx, svm(tr, te))
		if err != nil {
			m.p("LIBSVM run failed: `%v`", err)
		} else {
			svmMarkdown(&m, res, key)
		}
		b.set("svm", m.String())
	}
	if cfg.wantGP() {
		if gp == nil {
			b.set("gp", "The GP side was not run: this build of bench/repro has no GP experiment code for "+key+".")
		} else if err := gp(ctx, b, tr, te); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				b.set("gp-error", fmt.Sprintf("**The run reached its deadline (--deadline %s) here; the parts that had not finished are missing or partial.**",
					cfg.Deadline.Format("15:04 MST")))
			} else {
				b.set("gp-error", fmt.Sprintf("**The GP run stopped with an error:** `%v`", err))
			}
			env.logf("%s GP: %v", key, err)
		}
	}
	b.svm()
	b.set("mem", fmt.Sprintf("Peak resident memory of the repro process after this section: %.2f GiB (VmHWM; bound 16 GiB).", peakRSSGiB()))
	if ctx.Err() == nil {
		b.done()
	}
	return ctx.Err()
}

func runUSPS(ctx context.Context, env *Env) error {
	cfg := env.Cfg
	return runExperiment(ctx, env, "usps", "USPS (Section 6.1)", loadUSPS, 2000, 1000,
		func(tr, te *Dataset) string {
			return "Digits 0-9 one-against-the-rest, SE kernel, inputs as distributed (ESL version, values in [-1, 1])."
		},
		func(tr, te *Dataset) SVMSpec {
			s := SVMSpec{Train: tr, Test: te, GridData: tr, Folds: 5, Parallel: svmParallel(cfg),
				Cs: pow2s(1, 3, 5), Gammas: pow2s(-8, -7, -6),
				Note: "C in {2, 8, 32}, gamma in {2^-8, 2^-7, 2^-6}, on the whole training set", Prob: true}
			if cfg.Quick {
				s.GridData = tr.Subsample(1000, cfg.Seed+7)
				s.Cs, s.Gammas = pow2s(1, 3), pow2s(-7, -5)
				s.Note = "quick: C in {2, 8}, gamma in {2^-7, 2^-5}, on a 1000-example subsample of the training set"
			}
			return s
		}, gpUSPS)
}

func runIJCNN(ctx context.Context, env *Env) error {
	cfg := env.Cfg
	return runExperiment(ctx, env, "ijcnn", "IJCNN (Section 6.4)", loadIJCNN, 10000, 20000,
		func(tr, te *Dataset) string {
			return "Binary task, 22 features as distributed (LIBSVM scaling)."
		},
		func(tr, te *Dataset) SVMSpec {
			s := SVMSpec{Train: tr, Test: te, GridData: tr.Subsample(10000, cfg.Seed+7), Folds: 5, Parallel: svmParallel(cfg),
				Cs: pow2s(2, 4, 6), Gammas: pow2s(0, 2),
				Note: "C in {4, 16, 64}, gamma in {1, 4} (gamma 4 corresponds to the paper's theta_2 = 1/8), on a random 10000-example subsample of the training set to keep the search affordable", Prob: true}
			if cfg.Quick {
				s.GridData = tr.Subsample(2000, cfg.Seed+7)
				s.Cs, s.Gammas = pow2s(2, 4), pow2s(0, 2)
				s.Note = "quick: C in {4, 16}, gamma in {1, 4}, on a 2000-example subsample of the training set"
			}
			return s
		}, gpIJCNN)
}

func runMNIST(ctx context.Context, env *Env) error {
	cfg := env.Cfg
	return runExperiment(ctx, env, "mnist", "MNIST (Sections 6.2 and 6.3)", loadMNIST, 3000, 1000,
		func(tr, te *Dataset) string {
			return "Digits 0-9 one-against-the-rest; inputs are pixels/255 (in [0, 1])."
		},
		func(tr, te *Dataset) SVMSpec {
			s := SVMSpec{Train: tr, Test: te, GridData: tr.Subsample(5000, cfg.Seed+7), Folds: 5, Parallel: svmParallel(cfg),
				Cs: pow2s(2, 4), Gammas: pow2s(-6, -5, -4),
				Note: "C in {4, 16}, gamma in {2^-6, 2^-5, 2^-4}, on a random 5000-example subsample of the training set (a search on all 60000 would take hours on 2 cores)",
				// -b 1 trains about five more SVMs on 60000 images: off
				// unless asked for.
				Prob: cfg.MNISTSVMProb}
			if cfg.Quick {
				s.GridData = tr.Subsample(1000, cfg.Seed+7)
				s.Cs, s.Gammas = pow2s(2, 4), pow2s(-5, -4)
				s.Note = "quick: C in {4, 16}, gamma in {2^-5, 2^-4}, on a 1000-example subsample of the training set"
			}
			return s
		}, gpMNIST)
}
