package passgp

import (
	"context"
	"errors"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/ivm"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// trainIVM runs IVM selection of M points, alternating with hyperparameter
// optimisation on the selected set as the paper ran it (Passes selections,
// θ optimised between them; one selection when θ is fixed). The classifier
// uses IVM's ADF sites.
func trainIVM(ctx context.Context, x *mat.Dense, y []float64, c *config, r *runner) (*Result, error) {
	start := time.Now()
	n, _ := x.Dims()
	m := min(c.M, n)
	k := c.Kernel
	res := &Result{Theta0: k.Params()}
	passes := c.Passes
	if c.FixedTheta {
		passes = 1
	}
	var st *ivm.State
	// stopped returns the partial result when ctx ends: the classifier
	// of the last complete selection, if any.
	stopped := func(err error) (*Result, error) {
		if st == nil {
			return nil, err
		}
		b, ferr := ivmModel(k, x, y, st)
		if ferr != nil {
			return nil, errors.Join(err, ferr)
		}
		res.Model, res.Elapsed = b, time.Since(start)
		return res, err
	}
	for p := 0; p < passes; p++ {
		if err := ctx.Err(); err != nil {
			return stopped(err)
		}
		bs := BatchStats{Pass: p}
		t0 := time.Now()
		next, err := ivm.Select(ctx, k, x, y, m)
		if err != nil {
			return stopped(err)
		}
		st = next
		bs.ScoreTime = time.Since(t0)
		bs.Active, bs.Included = len(st.Sel), len(st.Sel)
		if !c.FixedTheta && p < passes-1 {
			t0 = time.Now()
			// Few alternations, each on M points: give the optimiser room
			// to finish its line searches (finalHypEvals); 3 evaluations
			// left t2 oscillating by ±50%.
			k, bs.AtBound, bs.HypEvals = ivm.Optimize(ctx, k, gatherRows(x, st.Sel), st.Tau, st.Nu, c.Fixed, c.lower, c.upper, finalHypEvals)
			bs.HypTime = time.Since(t0)
			res.Evals += bs.HypEvals
			res.AtBound = bs.AtBound
		}
		bs.Theta = k.Params()
		res.Batches = append(res.Batches, bs)
		if c.Progress != nil {
			c.Progress(Progress{Pass: p, Passes: passes, Batches: 1, Active: m, Included: bs.Included, LogZ: bs.LogZ, Theta: bs.Theta, Elapsed: time.Since(start)})
		}
	}
	b, err := ivmModel(k, x, y, st)
	if err != nil {
		return nil, err
	}
	res.Model, res.Elapsed, res.HypNotConverged = b, time.Since(start), hypNotConverged(res.Batches)
	return res, nil
}

func ivmModel(k kernel.Kernel, x *mat.Dense, y []float64, st *ivm.State) (*Binary, error) {
	xa, ya := gatherRows(x, st.Sel), gather(y, st.Sel)
	return newBinary(k, xa, ya, slices.Clone(st.Sel), ep.Sites{Tau: slices.Clone(st.Tau), Nu: slices.Clone(st.Nu)})
}
