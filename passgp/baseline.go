package passgp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/passgp-fast/passgp-fast/ep"
)

// trainRandom trains on a random active set of size M (seeded), optimising
// θ on it unless fixed.
func trainRandom(ctx context.Context, x Rows, y []float64, c *config, r *runner) (*Result, error) {
	n, _ := x.Dims()
	rng := initRNG(c.Seed)
	a := slices.Clone(rng.Perm(n)[:min(c.M, n)])
	return trainOn(ctx, x, y, a, c)
}

// trainFull is the full GPC: EP on all N points. It refuses when one N×N
// matrix would exceed DefaultMaxFullBytes.
func trainFull(ctx context.Context, x Rows, y []float64, c *config, r *runner) (*Result, error) {
	n, _ := x.Dims()
	if err := checkFullMemory(n, DefaultMaxFullBytes, "full GPC"); err != nil {
		return nil, err
	}
	a := make([]int, n)
	for i := range a {
		a[i] = i
	}
	return trainOn(ctx, x, y, a, c)
}

func checkFullMemory(n int, limit int64, what string) error {
	need := int64(n) * int64(n) * 8
	if need > limit {
		return fmt.Errorf("passgp: %s on %d points needs %d MiB per %d×%d matrix (and EP holds several), more than the limit of %d MiB; use an active set method",
			what, n, need>>20, n, n, limit>>20)
	}
	return nil
}

// trainOn optimises θ on the fixed set a (unless fixed) and runs EP on it.
// It stops within one EP sweep when ctx ends, with no partial result.
func trainOn(ctx context.Context, x Rows, y []float64, a []int, c *config) (*Result, error) {
	start := time.Now()
	xa, err := readRows(x, a)
	if err != nil {
		return nil, err
	}
	ya := gather(y, a)
	k := c.Kernel
	res := &Result{Theta0: k.Params()}
	bs := BatchStats{Active: len(a), Included: len(a)}
	epo := c.finalEPOptions()
	if !c.FixedTheta {
		t0 := time.Now()
		// One cold optimisation: ep's default evaluation cap.
		o, err := ep.OptimizeContext(ctx, k, xa, ya, nil, c.optimizeOptions(0, epo))
		bs.HypTime = time.Since(t0)
		if err != nil {
			return nil, fmt.Errorf("passgp: hyperparameter optimisation: %w", err)
		}
		k = o.Kernel
		bs.HypEvals = o.Evals
		bs.HypNotConverged = o.NotConvergedEvals
		bs.AtBound = slices.Clone(o.AtBound)
		res.Evals, res.AtBound = o.Evals, bs.AtBound
	}
	t0 := time.Now()
	post, err := ep.InferContext(ctx, k, xa, ya, nil, &epo)
	bs.EPTime = time.Since(t0)
	var nc *ep.NotConvergedError
	if errors.As(err, &nc) && nc.Post != nil {
		post, bs.NotConverged = nc.Post, true
	} else if err != nil {
		return nil, fmt.Errorf("passgp: EP on %d points: %w", len(a), err)
	}
	bs.LogZ, bs.EPSweeps, bs.Theta = post.LogZ, post.Sweeps, k.Params()
	b, err := newBinary(k, xa, ya, slices.Clone(a), post.Sites)
	if err != nil {
		return nil, err
	}
	res.Model, res.Batches, res.Elapsed, res.NotConverged = b, []BatchStats{bs}, time.Since(start), bs.NotConverged
	res.HypNotConverged = bs.HypNotConverged
	return res, nil
}
