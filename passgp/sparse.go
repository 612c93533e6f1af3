package passgp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/internal/onepass"
	"github.com/passgp-fast/passgp-fast/score"
)

// sparsePass is TrainFITC's pass: EP on all N training points under the FITC
// prior at the classifier's θ with the active set as inducing inputs
// (ep.InferFITC), which becomes the classifier's predictor (Binary.Sparse).
// A small active set then carries the posterior of every training point
// instead of its own only. A run whose sites still change after its
// halved steps gives its last posterior, which is used and reported
// (Result.FITCNotConverged). Its time is added to res.Elapsed.
func sparsePass(ctx context.Context, c *config, res *Result, x *mat.Dense, y []float64) error {
	b := res.Model
	t0 := time.Now()
	o := c.finalEPOptions()
	f, err := ep.InferFITC(ctx, b.Kernel, x, y, b.X, nil, &o)
	var nc *ep.FITCNotConvergedError
	if errors.As(err, &nc) {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("passgp: FITC pass over %d points with %d inducing: %w", len(y), b.X.RawMatrix().Rows, err)
	}
	b.Sparse, b.Inducing = f, nil
	res.FITCNotConverged = nc != nil
	res.Elapsed += time.Since(t0)
	return nil
}

// fitcTheta maximises the FITC model's log Z_EP over log θ (the entries
// not in c.Fixed, within c's bounds or ep's defaults: ep.LogBox) by L-BFGS
// on the evidence gradient (ep.InferFITCGrad; zero beyond a bound, as in
// ep.Optimize) from f0's θ, in at most evals EP runs, each warm-started
// from the best sites so far, and returns the best posterior, f0 if none
// is better. A run that fails or does not converge counts as a failed
// step. The start is PASS-GP's kept θ, the mean of evidence optima
// (keptTheta), where a gradient method does well (docs/decisions.md).
func fitcTheta(ctx context.Context, c *config, f0 *ep.FITC, x *mat.Dense, y []float64, xm *mat.Dense, o *ep.Options, evals int) (*ep.FITC, error) {
	box := ep.NewLogBox(f0.Kernel.Params(), c.Fixed, c.lower, c.upper)
	if len(box.Free) == 0 {
		return f0, nil
	}
	best := f0
	// eval runs EP at the free log-values u with the gradient and returns
	// -log Z, +Inf if EP failed.
	eval := func(u, grad []float64) float64 {
		th, at := box.Theta(u)
		warm := best.Sites
		clear(grad)
		f, g, err := ep.InferFITCGrad(ctx, f0.Kernel.WithParams(th), x, y, xm, &warm, o)
		if err != nil || math.IsNaN(f.LogZ) {
			return math.Inf(1)
		}
		if f.LogZ > best.LogZ {
			best = f
		}
		for i, j := range box.Free {
			if !at[j] {
				grad[i] = -g[j]
			}
		}
		return -f.LogZ
	}
	onepass.LBFGS(ctx, eval, box.Start(), evals, 1e-4, thetaTol)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return best, nil
}

// sparseHeldOut sets z to the held-out latents of a FITC classifier, and
// v to their variances: the cavity (leave-one-out) marginal of every
// training point, each of which has a site. A cavity lost to rounding (no
// positive precision) falls back to the posterior marginal and is counted.
func sparseHeldOut(f *ep.FITC, z, v []float64) (lost int) {
	n := len(z)
	cm, cv := make([]float64, n), make([]float64, n)
	f.CavityTo(cm, cv)
	for i := range z {
		if math.IsNaN(cm[i]) {
			cm[i], cv[i] = f.Mean[i], f.Var[i]
			lost++
		}
		z[i], v[i] = cm[i]/sqrtPos(1+cv[i]), cv[i]
	}
	return lost
}

// predictSparse sets mean and variance to f's predictive latent marginals
// of the rows rows of x (nil: all), in chunks of score.Chunk rows on r's
// workers, checking ctx between rounds of chunks; it returns ctx's or x's
// error.
func (r *runner) predictSparse(ctx context.Context, f *ep.FITC, x Rows, rows []int, mean, variance []float64) error {
	n, d := x.Dims()
	if rows != nil {
		n = len(rows)
	}
	bufs := make([][]float64, max(r.Threads, 1))
	err := r.Chunks(ctx, n, func(w, lo, hi int) {
		if len(bufs[w]) < score.Chunk*d {
			bufs[w] = make([]float64, score.Chunk*d)
		}
		xs := mat.NewDense(hi-lo, d, bufs[w][:(hi-lo)*d])
		if rows != nil {
			x.RowsTo(xs.RawMatrix().Data, rows[lo:hi])
		} else {
			x.RowsTo(xs.RawMatrix().Data, span(lo, hi))
		}
		if r.Serial {
			f.PredictSerialTo(mean[lo:hi], variance[lo:hi], nil, xs)
			return
		}
		f.PredictTo(mean[lo:hi], variance[lo:hi], nil, xs)
	})
	if err != nil {
		return err
	}
	return x.Err()
}

// TrainFITC runs a sparse pass on a trained classifier b
// (from Train, TrainMulti or a loaded model; not one from an invariance
// stage): EP on all rows of x, y (the training data b was selected from)
// with b's active inputs as FITC inducing inputs, at b's θ. The result's
// Model is b with Sparse set (sharing b's inputs and active set
// posterior), its Elapsed the pass alone, and its HeldOut, Calibration,
// HeldOutError and MajorityRate are those of that posterior. Of o, only
// Threads and EP are used (nil: defaults). TrainFITC lets one selection
// serve both a plain and a FITC classifier, as bench/repro does.
func TrainFITC(ctx context.Context, b *Binary, x *mat.Dense, y []float64, o *Options) (*Result, error) {
	oo := Options{FixedTheta: true}
	if o != nil {
		oo.Threads, oo.EP = o.Threads, o.EP
	}
	oo.Kernel = b.Kernel
	c, err := checkInput(ctx, DenseRows(x), y, &oo)
	if err != nil {
		return nil, err
	}
	if _, d := x.Dims(); d != b.X.RawMatrix().Cols {
		return nil, fmt.Errorf("passgp: TrainFITC: %d features for a classifier of %d", d, b.X.RawMatrix().Cols)
	}
	if slices.Contains(b.Active, -1) {
		return nil, fmt.Errorf("passgp: TrainFITC: the classifier has translated active images (invariance stage)")
	}
	nb := *b
	nb.Sparse = nil
	res := &Result{Model: &nb}
	if err := sparsePass(ctx, &c, res, x, y); err != nil {
		return nil, err
	}
	err = setHeldOut(ctx, newRunner(c.threads), res, DenseRows(x), y, nil, c.HeldOutRows(len(y)))
	return fitBinary(res, y, err)
}
