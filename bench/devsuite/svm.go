package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
)

// LIBSVM's grid, as the --libsvm flag documents: C as LIBSVM's guide
// suggests, γ around its default 1/d.
var (
	svmC     = []float64{1, 10, 100}
	svmGamma = []float64{0.25, 1, 4, 16} // times 1/d
)

// svmGridSub bounds the points of the grid's cross-validation (the fold
// files are in random order, so these are a random sample).
const svmGridSub = 5000

// runSVM scales the fold's files with svm-scale fitted on its training
// part, picks C and γ by svm-train's 5-fold cross-validation over the
// grid, trains svm-train -b 1 and scores svm-predict -b 1's
// probabilities as runPassGP scores passgp-fast's. Its time is the
// grid's plus the final training's.
func runSVM(ctx context.Context, dir, trainF, testF string, d int) (Fold, error) {
	f := Fold{HeldOut: -1}
	rangeF := filepath.Join(dir, "svm.range")
	trS, teS := filepath.Join(dir, "train.scaled"), filepath.Join(dir, "test.scaled")
	for _, c := range [][]string{{"-s", rangeF, trainF, trS}, {"-r", rangeF, testF, teS}} {
		if err := scaleTo(ctx, c[3], c[0], c[1], c[2]); err != nil {
			return f, err
		}
	}
	gammas := make([]float64, len(svmGamma))
	for i, g := range svmGamma {
		gammas[i] = g / float64(d)
	}
	fit, err := libsvm.GridFit(ctx, trS, teS, dir, svmGridSub, svmC, gammas, 0)
	if err != nil {
		return f, err
	}
	f.Seconds = fit.GridSeconds + fit.TrainSeconds
	f.Error, f.Brier, f.NLP = fit.Error, fit.Brier, fit.NLP
	return f, nil
}

// scaleTo runs svm-scale with args, writing its output to path.
func scaleTo(ctx context.Context, path string, args ...string) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	_, _, err = libsvm.Timed(ctx, out, "svm-scale", args...)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
