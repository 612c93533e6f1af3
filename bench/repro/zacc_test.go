package main

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/internal/testenv"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// TestZACCApproachesFull: Z_ACC approaches the full EP evidence as the
// active set grows and equals it when A is everything (paper Fig. 4);
// over the memory limit it is an error; a cancelled context stops it.
func TestZACCApproachesFull(t *testing.T) {
	x, y := testenv.Toy(80, 23)
	k := kernel.SE{Var: 2, Len2: 0.5, Jitter: 1e-4}
	tight := ep.Options{Tol: 1e-10, MaxSweeps: 1000}
	full, err := ep.Infer(k, x, y, nil, &tight)
	if err != nil {
		t.Fatal(err)
	}
	train := func(m int) *passgp.Binary {
		res, err := passgp.Train(context.Background(), x, y, &passgp.Options{Method: passgp.Random, M: m, Kernel: k, FixedTheta: true, Seed: 4, EP: tight, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		return res.Model
	}
	var errs []float64
	for _, m := range []int{10, 40, 70, 80} {
		z, err := marginalLikelihood(train(m), x, y, true, &tight, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("M=%d: log Z_EP,A %.4f, Z_APP %.4f, Z_ACC %.4f, full %.4f", m, z.EPA, z.APP, z.ACC, full.LogZ)
		errs = append(errs, math.Abs(z.ACC-full.LogZ))
	}
	if !(errs[1] < errs[0] && errs[2] < errs[1]) {
		t.Errorf("|log Z_ACC − log Z_EP| does not shrink with M: %v", errs)
	}
	if errs[3] > 1e-8 {
		t.Errorf("A = everything: |log Z_ACC − log Z_EP| = %v", errs[3])
	}
	if _, err := marginalLikelihood(train(10), x, y, true, nil, 8); err == nil {
		t.Error("Z_ACC over the memory limit: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if z, err := marginalLikelihoodContext(ctx, train(10), x, y, true, nil, 0); !errors.Is(err, context.Canceled) || z != nil {
		t.Errorf("cancelled: %v, %v", z, err)
	}
}
