package passgp

import (
	"context"
	"errors"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/ep"
)

// boundSearchPerInducing bounds the training points of config.boundSearch's
// θ search, per inducing input: the FITC evidence of a random sample of
// them (all N where fewer), so that the search's 40 EP runs cost
// O(10·m³) each at any N (3000 points for m = 300).
const boundSearchPerInducing = 10

// boundSearchEvals caps the EP runs of boundSearch's θ search: 20 of
// Nelder-Mead, then 20 of L-BFGS (fitcTheta).
const boundSearchEvals = 40

// screenSearch turns boundSearch's screen on; tests turn it off to reach
// the comparison on the pass's points.
var screenSearch = true

// boundCandidate is a FITC posterior that Options.BoundFITC's pass
// weighs: the classifier it gives and its held-out latents, shares,
// lost cavities and calibration (nil where it was fitted on a subset).
type boundCandidate struct {
	b        *Binary
	z, rho   []float64
	lost     int
	cal      *calib.Calibration
	nll      float64
	sweeps   int
	perPoint []float64 // per-point NLLs on the compared rows
	errs     []float64 // per-point errors (1 or 0) there
	// screened, when not nil, is the θ at which the search's screen
	// stopped it; the other fields are then empty.
	screened []float64
}

// cavityNLLs returns the per-point NLLs and errors of the FITC
// posterior f's leave-one-out (cavity) latents of its own points, whose
// classes are truth, through a calibration of those latents alone.
func cavityNLLs(f *ep.FITC, truth []int) (nll, errs []float64, err error) {
	n := len(truth)
	z, v := make([]float64, n), make([]float64, n)
	sparseHeldOut(f, z, v)
	nll, errs, _, err = calibratedNLLs(z, make([]float64, n), truth, nil)
	return nll, errs, err
}

// boundSearch is config.boundSearch for boundPass: θ by the FITC
// evidence (fitcTheta, from the θ of from) of a random sample of at most
// boundSearchPerInducing·m training points with the inducing inputs xm,
// then the FITC posterior at that θ on the points xs of x (nil: all), as
// boundPass's, and the active set's posterior at it (b's active set,
// warm-started from its sites), so that the classifier has one θ; its
// held-out latents of every point, and their calibrated NLLs and errors
// on the rows rows (nil: all). It returns nil where the search ends at
// from's θ or EP fails, and a candidate with only screened set where the
// search's screen stopped it (after Nelder-Mead, the leave-one-out
// predictions of the sample not clearly better than at from's θ, where
// the second half of the search's EP runs and the pass over all points
// would be spent on a θ that the comparison then rejects); only ctx's
// error is returned. Why the search: config.boundSearch.
func boundSearch(ctx context.Context, c *config, r *runner, b, from *Binary, x Rows, y []float64, xm *mat.Dense, idx []int, xs, rows []int, truth []int) (*boundCandidate, error) {
	n := len(y)
	m, _ := xm.Dims()
	o := c.finalEPOptions()
	q := searchPoints(c.Seed, n, boundSearchPerInducing*m)
	xq, err := rowsOf(x, q)
	if err != nil {
		return nil, err
	}
	yq := y
	if q != nil {
		yq = gather(y, q)
	}
	f0, err := ep.InferFITC(ctx, from.Kernel, xq, yq, xm, nil, &o)
	if err != nil {
		return nil, ctx.Err()
	}
	// The screen: after Nelder-Mead, the search goes on only where its
	// posterior's leave-one-out predictions of the sample are already
	// clearly better than f0's, in NLL and in error (clearlyBetter);
	// elsewhere it costs half its EP runs and none on the pass's points.
	screen := searchScreen(f0, calib.BinaryTruth(yq))
	f, err := fitcTheta(ctx, c, f0, xq, yq, xm, &o, boundSearchEvals, screen)
	if errors.Is(err, errScreened) {
		return &boundCandidate{screened: f.Kernel.Params()}, nil
	}
	if err != nil {
		return nil, err
	}
	theta := f.Kernel.Params()
	if slices.Equal(theta, from.Kernel.Params()) {
		return nil, nil
	}
	if q != nil || xs != nil {
		xc, err := rowsOf(x, xs)
		if err != nil {
			return nil, err
		}
		yc := y
		if xs != nil {
			yc = gather(y, xs)
		}
		if f, err = ep.InferFITC(ctx, f.Kernel, xc, yc, xm, nil, &o); err != nil {
			return nil, ctx.Err()
		}
	}
	post, err := ep.InferContext(ctx, f.Kernel, b.X, b.Y, &b.Post.Sites, &o)
	var nc *ep.NotConvergedError
	if errors.As(err, &nc) {
		post, err = nc.Post, nil // usable; predictions come from f
	}
	if err != nil {
		return nil, ctx.Err()
	}
	nb, err := newBinary(f.Kernel, b.X, b.Y, b.Active, post.Sites)
	if err != nil {
		return nil, ctx.Err()
	}
	nb.Sparse, nb.Inducing = f, idx
	z, rho, lost, err := fitcHeldOut(ctx, r, nb, x, xs)
	if err != nil {
		return nil, err
	}
	each, errs, cal, err := calibratedNLLs(z, rho, truth, rows)
	if err != nil {
		return nil, ctx.Err()
	}
	return &boundCandidate{b: nb, z: z, rho: rho, lost: lost, cal: cal, nll: meanInOrder(each), sweeps: f.Sweeps, perPoint: each, errs: errs}, nil
}

// searchScreen returns the screen of boundSearch's search from f0 on a
// sample of labels sample (nil where screenSearch is off): whether a
// posterior's leave-one-out predictions of the sample are clearly better
// than f0's, in NLL and in error (clearlyBetter).
func searchScreen(f0 *ep.FITC, sample []int) func(*ep.FITC) bool {
	if !screenSearch {
		return nil
	}
	return func(best *ep.FITC) bool {
		if best == f0 {
			return false
		}
		a, ea, err := cavityNLLs(f0, sample)
		if err != nil {
			return false
		}
		bn, eb, err := cavityNLLs(best, sample)
		if err != nil {
			return false
		}
		_, _, _, better := clearlyBetter(a, bn)
		_, _, _, decides := clearlyBetter(ea, eb)
		return better && decides
	}
}

// calibratedNLLs fits a calibration to the held-out latents (z, rho) of
// the rows sub (nil: all) and returns the per-point NLLs of the labels
// truth there and the per-point errors (1 or 0) of the decisions, both
// cross-fitted (calib.CrossFit: each point through a calibration fitted on the
// other folds, so that a posterior's score is not its calibration's fit to
// the same points), and the calibration of all the rows (sub nil).
func calibratedNLLs(z, rho []float64, truth, sub []int) (nll, errs []float64, cal *calib.Calibration, err error) {
	if sub != nil {
		z, rho, truth = gather(z, sub), gather(rho, sub), gather(truth, sub)
	}
	m := len(z)
	zm, rm := mat.NewDense(m, 1, z), mat.NewDense(m, 1, rho)
	c, err := calib.Fit(zm, rm, truth)
	if err != nil {
		return nil, nil, nil, err
	}
	folds, cals, err := calib.CrossFit(zm, rm, truth, crossFitSeed)
	if err != nil {
		return nil, nil, nil, err
	}
	nll, errs = make([]float64, m), make([]float64, m)
	for f, rows := range folds {
		if len(rows) == 0 {
			continue
		}
		each := make([]float64, len(rows))
		cals[f].NLLTo(each, gatherRows(zm, rows), gatherRows(rm, rows), gather(truth, rows))
		for a, i := range rows {
			nll[i] = each[a]
			if cals[f].Decide(z[i:i+1], rho[i:i+1]) != truth[i] {
				errs[i] = 1
			}
		}
	}
	if sub != nil {
		c = nil
	}
	return nll, errs, c, nil
}

// crossFitSeed draws the folds of the choices' cross-fitted scores.
const crossFitSeed = 1

// searchPoints returns, when n exceeds limit, a random sample (drawn from
// seed) of limit of the n training points in ascending order, else nil
// (all of them).
func searchPoints(seed uint64, n, limit int) []int {
	return randomSubset(seed, 0x3c6ef372fe94f82b, n, limit)
}

// searchCandidate runs boundSearch from the FITC classifier *nb (the best
// of boundPass's so far, with held-out latents *z, *rho, lost cavities
// *lost and calibration *cal) where config.boundSearch applies, records
// it in ch, and replaces the five with the search's where its held-out
// NLL and error on the rows rows (nil: all) are both clearly lower
// (clearlyBetter). b is the active set's classifier, xs the points of x
// the FITC EP runs on (nil: all).
func searchCandidate(ctx context.Context, c *config, r *runner, ch *FITCChoice, b *Binary, x Rows, y []float64, xm *mat.Dense, idx, xs, rows, truth []int,
	nb *Binary, z, rho *[]float64, lost *int, cal **calib.Calibration) error {
	if !c.boundSearch() {
		return nil
	}
	s, err := boundSearch(ctx, c, r, b, nb, x, y, xm, idx, xs, rows, truth)
	if err != nil || s == nil {
		return err
	}
	if s.screened != nil {
		ch.SearchTheta, ch.SearchScreened = s.screened, true
		return nil
	}
	ch.SearchTheta, ch.SearchNLL = s.b.Kernel.Params(), s.nll
	each, errs, _, err := calibratedNLLs(*z, *rho, truth, rows)
	if err != nil {
		return err
	}
	var better, decides bool
	_, _, ch.SearchSE, better = clearlyBetter(each, s.perPoint)
	ch.FITCError, ch.SearchError, ch.SearchErrorSE, decides = clearlyBetter(errs, s.errs)
	if better && decides {
		ch.Searched, ch.Sweeps = true, s.sweeps
		*nb, *z, *rho, *lost, *cal = *s.b, s.z, s.rho, s.lost, s.cal
	}
	return nil
}
