package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
)

// The grid: C and γ around LIBSVM's default γ = 1/d = 0.05 for d = 20.
var (
	gridC     = []float64{1, 10, 100}
	gridGamma = []float64{0.002, 0.01, 0.05, 0.25}
)

// runSVM picks C and γ by 5-fold cross-validation on the first gridSub
// training points (the rows are i.i.d., so they are a random subsample),
// trains svm-train -b 1 on all of them and scores svm-predict -b 1's
// probabilities on the test file.
func runSVM(ctx context.Context, trainF, testF, dir string, gridSub int, timeout time.Duration) (Run, error) {
	r := Run{Tool: "libsvm"}
	sub := filepath.Join(dir, "grid.libsvm")
	if err := libsvm.Head(trainF, sub, gridSub); err != nil {
		return r, err
	}
	t0 := time.Now()
	bc, bg, _, err := libsvm.Tune(ctx, sub, gridC, gridGamma)
	if err != nil {
		return r, err
	}
	r.GridSeconds = time.Since(t0).Seconds()
	r.Setting = fmt.Sprintf("5-fold CV on %d points over C in %v, gamma in %v: C = %g, gamma = %g; then -b 1 on all", gridSub, gridC, gridGamma, bc, bg)
	model := filepath.Join(dir, "svm.model")
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	el, rss, err := timed(tctx, io.Discard, "svm-train", "-q", "-b", "1", "-c", ffmt(bc), "-g", ffmt(bg), trainF, model)
	r.Seconds, r.MaxRSSGiB = r.GridSeconds+el.Seconds(), rss
	if err != nil {
		if tctx.Err() != nil {
			return r, fmt.Errorf("svm-train -b 1 did not finish within %v", timeout)
		}
		return r, err
	}
	pred := filepath.Join(dir, "svm.pred")
	if _, _, err := timed(ctx, io.Discard, "svm-predict", "-b", "1", testF, model, pred); err != nil {
		return r, err
	}
	if r.Active, err = libsvm.SupportVectors(model); err != nil {
		return r, err
	}
	return r, score(&r, testF, pred)
}

var (
	ffmt  = libsvm.Float
	timed = libsvm.Timed
)

// score scores svm-predict -b 1's output pred against the labels of the
// test file (libsvm.ScoreFile: as eval scores a model).
func score(r *Run, testF, pred string) error {
	s, err := libsvm.ScoreFile(testF, pred)
	r.Error, r.Brier, r.NLP, r.ECE = s.Error, s.Brier, s.NLP, s.ECE
	return err
}
