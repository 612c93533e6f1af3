package passgp

import (
	"context"
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// countKernel wraps a kernel and counts its training covariances (one
// per EP run) and cross covariances (one per scoring chunk); hook, when
// set, sees each call after it is counted. WithParams keeps the wrapper
// and the shared counts.
type countKernel struct {
	kernel.Kernel
	n *kernelCounts
}

type kernelCounts struct {
	train, cross int
	hook         func(c *kernelCounts)
}

func (k countKernel) WithParams(theta []float64) kernel.Kernel {
	k.Kernel = k.Kernel.WithParams(theta)
	return k
}

func (k countKernel) TrainTo(dst, x *mat.Dense) {
	k.n.train++
	if k.n.hook != nil {
		k.n.hook(k.n)
	}
	k.Kernel.TrainTo(dst, x)
}

func (k countKernel) CrossTo(dst, a, b *mat.Dense) {
	k.n.cross++
	if k.n.hook != nil {
		k.n.hook(k.n)
	}
	k.Kernel.CrossTo(dst, a, b)
}

// TestCancelFinalOptimisation: a cancellation during the hyperparameter
// optimisation on the final active set stops it at the EP run in
// progress: no further EP run starts (the partial classifier is built
// from the last batch's sites, one covariance).
func TestCancelFinalOptimisation(t *testing.T) {
	x, y := toy(200, 31)
	run := func(ctx context.Context, cancel func(), at int) (*Result, error, *kernelCounts, int) {
		n := &kernelCounts{}
		last := -1 // training covariances before the final stage
		o := &Options{Init: 20, Sub: 2, Passes: 1, Seed: 2, Threads: 1,
			Kernel: countKernel{Kernel: toyKernel(), n: n},
			Progress: func(p Progress) {
				if p.Pass == p.Passes-1 && p.Batch == p.Batches-1 {
					last = n.train
				}
			}}
		n.hook = func(c *kernelCounts) {
			if cancel != nil && last >= 0 && c.train == last+at {
				cancel()
			}
		}
		res, err := Train(ctx, x, y, o)
		return res, err, n, last
	}
	_, err, full, last := run(context.Background(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if full.train-last < 4 {
		t.Fatalf("the final stage ran %d EP runs; the test needs an optimisation of several", full.train-last)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err, n, last := run(ctx, cancel, 2)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if after := n.train - (last + 2); after > 1 {
		t.Errorf("%d covariances built after the cancellation, want at most 1 (the partial classifier)", after)
	}
	if res != nil && res.Model == nil {
		t.Error("partial result without a classifier")
	}
}

// TestCancelAugmentStage: a cancellation in the invariance stage stops it
// before its next batch.
func TestCancelAugmentStage(t *testing.T) {
	x, y := toyImages(120)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls, stage2 := 0, 0
	o := &Options{Init: 20, Sub: 2, Seed: 5, Threads: 1, Augment: &Augmentation{Shifts: 4, ImageW: 4, ImageH: 4, PInc: 0.95},
		Progress: func(Progress) {
			calls++
			if calls == 5 { // the first batch of the second stage (2 passes × 2 batches before it)
				cancel()
			}
		}}
	res, err := Train(ctx, x, y, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if calls != 5 {
		t.Errorf("%d batches, want 5: the stage went on after the cancellation", calls)
	}
	if res != nil {
		for _, b := range res.Batches {
			if b.Augmented {
				stage2++
			}
		}
		if stage2 != 1 {
			t.Errorf("%d augmented batches recorded, want 1", stage2)
		}
	}
}

// TestCancelHeldOutScoring: the held-out scoring pass over every
// training point after training (calibration) stops within one scoring
// chunk of a cancellation. The final θ search moves θ, so that the last
// pass's scores are not reused and every inactive point is scored again.
func TestCancelHeldOutScoring(t *testing.T) {
	x, y := toy(1500, 32)
	run := func(ctx context.Context, cancel func(), at int) (error, *kernelCounts, int) {
		n := &kernelCounts{}
		last := -1 // scoring chunks before the held-out pass
		o := &Options{Init: 20, Sub: 3, Passes: 1, Seed: 2, Threads: 1,
			Kernel: countKernel{Kernel: toyKernel(), n: n},
			Progress: func(p Progress) {
				if p.Pass == p.Passes-1 && p.Batch == p.Batches-1 {
					last = n.cross
				}
			}}
		n.hook = func(c *kernelCounts) {
			if cancel != nil && last >= 0 && c.cross == last+at {
				cancel()
			}
		}
		_, err := Train(ctx, x, y, o)
		return err, n, last
	}
	err, full, last := run(context.Background(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if full.cross-last < 4 {
		t.Fatalf("the held-out pass scored %d chunks; the test needs several", full.cross-last)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err, n, last := run(ctx, cancel, 2)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n.cross != last+2 {
		t.Errorf("%d chunks scored after the cancellation, want 0", n.cross-(last+2))
	}
}
