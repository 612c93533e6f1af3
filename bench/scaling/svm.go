package main

import (
	"context"
	"fmt"
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
// probabilities on the test file (libsvm.GridFit).
func runSVM(ctx context.Context, trainF, testF, dir string, gridSub int, timeout time.Duration) (Run, error) {
	f, err := libsvm.GridFit(ctx, trainF, testF, dir, gridSub, gridC, gridGamma, timeout)
	r := Run{Tool: "libsvm", GridSeconds: f.GridSeconds, Seconds: f.GridSeconds + f.TrainSeconds, MaxRSSGiB: f.MaxRSSGiB,
		Active: f.SVs, Error: f.Error, Brier: f.Brier, NLP: f.NLP, ECE: f.ECE,
		Setting: fmt.Sprintf("5-fold CV on %d points over C in %v, gamma in %v: C = %g, gamma = %g; then -b 1 on all", gridSub, gridC, gridGamma, f.C, f.Gamma)}
	return r, err
}
