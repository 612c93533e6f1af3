package passgp

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// FITCPass records the FITC stage of Options.BoundFITC for one
// classifier (boundPass).
type FITCPass struct {
	// Inducing is the number of inducing inputs, Points the number of
	// training points EP ran on (all, or boundPointsPerInducing per
	// inducing input: fitcPoints), Sweeps the final EP run's sweeps and
	// Elapsed the stage's time, the θ search included.
	Inducing, Points, Sweeps int
	Elapsed                  time.Duration
	// Theta is the θ of the FITC posterior: of fitcPosteriors' candidates
	// (the FITC evidence's optimum, the selection's θ) the one chosen.
	Theta []float64
	// ActiveNLL and FITCNLL are the cross-fitted NLL of the training
	// labels under each posterior's held-out latents (calib.CrossFitNLL);
	// Kept is set where the FITC posterior's is lower and it predicts.
	ActiveNLL, FITCNLL float64
	Kept               bool
	// Failed, if not empty, says why EP gave no FITC posterior (not
	// converged, P not positive definite); the active set's then stays.
	Failed string
}

// boundFITC reports whether Options.BoundFITC applies to a result whose
// selection ran the batches bs: PASS-GP without Augment, whose budget bound
// in a batch.
func (c *config) boundFITC(bs []BatchStats) bool {
	return c.BoundFITC > 0 && c.Method == PASSGP && c.Augment == nil && budgetBound(bs)
}

// inducing returns the FITC stage's number of inducing inputs: BoundFITC,
// at most half the budget as N_init (InitSize); the whole active set, on
// twice as many points, is hardly sparse and costs what dense EP would
// (docs/method.md, Section 4; chosen on the protocol, docs/decisions.md).
func (c *config) inducing() int { return min(c.BoundFITC, (c.MaxActive+1)/2) }

// boundPass is Options.BoundFITC, the predictive posterior of a
// classifier whose budget bound (a batch with Trimmed): EP under the FITC
// prior on all training points (at most boundPointsPerInducing per
// inducing input, fitcPoints), with a random subset of the active inputs
// as inducing inputs (config.inducing), at the kept θ and at the FITC
// evidence's optimum from it (fitcPosteriors). Where the better one's
// (bestFITC) cavities, as held-out latents of the points held (nil: all),
// predict the training labels better than res's (calib.CrossFitNLL), it
// becomes the classifier's posterior (the active set's refitted at its θ,
// activeAt) with its held-out latents. Where EP fails (FITCPass.Failed),
// res is left as it was. Why: docs/method.md, Section 4.
func boundPass(ctx context.Context, c *config, r *runner, res *Result, x Rows, y []float64, held []int) error {
	t0 := time.Now()
	b := res.Model
	x, y, bv := HeldView(x, y, b, held)
	idx := randomSubset(c.Seed, inducingSalt, len(b.Y), c.inducing())
	xm := b.X
	if idx != nil {
		xm = gatherRows(b.X, idx)
	}
	m, _ := xm.Dims()
	n := len(y)
	sub := fitcPoints(c.Seed, bv.Active, n, boundPointsPerInducing*m)
	ch := &FITCPass{Inducing: m, Points: n}
	if sub != nil {
		ch.Points = len(sub)
	}
	res.BoundFITC = ch
	defer func() { ch.Elapsed = time.Since(t0); res.Elapsed += ch.Elapsed }()
	xs, ys, err := rowsOf(x, y, sub)
	if err != nil {
		return err
	}
	// The search's sample: a subset of sub's points where smaller.
	xq, yq := xs, ys
	if q := randomSubset(c.Seed, searchSalt, n, boundSearchPerInducing*m); q != nil {
		if xq, yq, err = rowsOf(x, y, q); err != nil {
			return err
		}
	}
	// failed records an EP failure (the active set's posterior stays);
	// ctx's error ends training.
	failed := func(err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		ch.Failed = err.Error()
		return nil
	}
	fs, err := fitcPosteriors(ctx, c, b.Kernel, xs, ys, xq, yq, xm)
	if err != nil {
		return failed(err)
	}
	truth := calib.BinaryTruth(y)
	if ch.ActiveNLL, err = calib.CrossFitNLL(mat.NewDense(n, 1, res.HeldOut), mat.NewDense(n, 1, res.HeldOutShare), truth, crossFitSeed); err != nil {
		return err
	}
	f, z, rho, lost, err := bestFITC(ctx, r, b, fs, x, sub, truth, ch)
	if err != nil {
		return err
	}
	ch.Sweeps, ch.Theta = f.Sweeps, f.Kernel.Params()
	if !(ch.FITCNLL < ch.ActiveNLL) {
		return nil
	}
	nb, err := activeAt(ctx, b, f.Kernel, c.finalEPOptions())
	if err != nil {
		return failed(err)
	}
	ch.Kept = true
	nb.Sparse, nb.Inducing = f, idx
	res.Model = nb
	res.HeldOut, res.HeldOutShare, res.HeldOutLost = z, rho, lost
	res.HeldOutRows = held
	res.HeldOutError, res.MajorityRate = LatentErrorRate(z, y), majorityRate(truth)
	return nil
}

// bestFITC returns the candidate of fs whose held-out latents (fitcHeldOut)
// give the labels truth the lowest cross-fitted NLL, which it puts in
// ch.FITCNLL, with those latents, their shares and lost count.
func bestFITC(ctx context.Context, r *runner, b *Binary, fs []*ep.FITC, x Rows, sub []int, truth []int, ch *FITCPass) (f *ep.FITC, z, rho []float64, lost int, err error) {
	n := len(truth)
	for _, fc := range fs {
		view := *b // the held-out latents need only its kernel and posterior
		view.Kernel, view.Sparse = fc.Kernel, fc
		zc, rc, lc, err := fitcHeldOut(ctx, r, &view, x, sub)
		var nll float64
		if err == nil {
			nll, err = calib.CrossFitNLL(mat.NewDense(n, 1, zc), mat.NewDense(n, 1, rc), truth, crossFitSeed)
		}
		if err != nil {
			return nil, nil, nil, 0, err
		}
		if f == nil || nll < ch.FITCNLL {
			f, z, rho, lost, ch.FITCNLL = fc, zc, rc, lc, nll
		}
	}
	return f, z, rho, lost, nil
}

// fitcPosteriors returns boundPass's candidate FITC posteriors, EP on
// the points (xs, ys) with the inducing inputs xm: at the θ that fitcTheta
// finds on the FITC evidence of the sample (xq, yq) from k's, and at k's,
// the selection's (only one where θ is fixed or the search stays there);
// cross-validated likelihood chooses (docs/method.md, Section 4). The
// search's errors are EP's; a failed run at k's θ drops that candidate.
func fitcPosteriors(ctx context.Context, c *config, k kernel.Kernel, xs *mat.Dense, ys []float64, xq *mat.Dense, yq []float64, xm *mat.Dense) ([]*ep.FITC, error) {
	o := c.finalEPOptions()
	if c.FixedTheta {
		f, err := ep.InferFITC(ctx, k, xs, ys, xm, nil, &o)
		return []*ep.FITC{f}, err
	}
	// The search's runs stop at ten times the final run's tolerance, as
	// on the active set (docs/method.md, Section 3).
	so := o
	so.SiteTol = 10 * ep.FITCSiteTol
	f0, err := ep.InferFITC(ctx, k, xq, yq, xm, nil, &so)
	if err != nil {
		return nil, err
	}
	f, err := fitcTheta(ctx, c, f0, xq, yq, xm, &so, boundSearchEvals)
	if err != nil {
		return nil, err
	}
	var warm0, warm *ep.Sites
	if xq == xs { // the search ran on these points: start from its sites
		warm0, warm = &f0.Sites, &f.Sites
	}
	fs, err := ep.InferFITC(ctx, f.Kernel, xs, ys, xm, warm, &o)
	if err != nil {
		return nil, err
	}
	if slices.Equal(f.Kernel.Params(), k.Params()) {
		return []*ep.FITC{fs}, nil
	}
	fk, err := ep.InferFITC(ctx, k, xs, ys, xm, warm0, &o)
	if err != nil {
		return []*ep.FITC{fs}, ctx.Err()
	}
	return []*ep.FITC{fs, fk}, nil
}

// activeAt returns a copy of b whose active set's posterior is refitted
// at k's θ from b's sites (b itself where θ is unchanged), so that a
// classifier predicting from a FITC posterior at k has one θ throughout.
// Run only once that posterior is chosen: it costs EP on the active set.
func activeAt(ctx context.Context, b *Binary, k kernel.Kernel, o ep.Options) (*Binary, error) {
	if slices.Equal(k.Params(), b.Kernel.Params()) {
		nb := *b
		return &nb, nil
	}
	post, err := ep.InferContext(ctx, k, b.X, b.Y, &b.Post.Sites, &o)
	var nc *ep.NotConvergedError
	if errors.As(err, &nc) {
		post, err = nc.Post, nil // usable: predictions come from the FITC posterior
	}
	if err != nil {
		return nil, err
	}
	return newBinary(k, b.X, b.Y, b.Active, post.Sites)
}

// crossFitSeed draws the folds of the choice's cross-fitted likelihoods.
const crossFitSeed = 1

// boundSearchPerInducing bounds the training points of fitcPosteriors'
// θ search, per inducing input: the FITC evidence of a random sample of
// them (all N where fewer), so that the search's EP runs cost O(10·m³)
// each at any N (3000 points for m = 300).
const boundSearchPerInducing = 10

// boundSearchEvals caps the EP runs of fitcPosteriors' θ search
// (fitcTheta): on the development protocol, 20 from the kept θ were
// within two standard errors of 40 (half of them Nelder-Mead) on every
// set where the budget binds, in 0.7 times the training time
// (docs/decisions.md).
const boundSearchEvals = 20

// boundPointsPerInducing bounds the FITC pass's training points per
// inducing input: beyond it, the pass runs on the active points and a
// random sample of the others, and predicts the rest, so that a sweep
// costs O(100·m³) instead of O(N·m²) (at N = 10⁶ the pass over all points
// took 35 s, as long as PASS-GP itself, for a held-out NLL of 0.2271
// against the active set's 0.2276).
const boundPointsPerInducing = 100

// fitcPoints returns, when n exceeds limit, the training points the FITC
// pass runs EP on: every active point and a random sample (drawn from
// seed) of the others, limit in all (at least the active points), in
// ascending order; nil when n <= limit (all of them).
func fitcPoints(seed uint64, active []int, n, limit int) []int {
	if n <= limit {
		return nil
	}
	in := make([]bool, n)
	for _, a := range active {
		if a >= 0 && a < n {
			in[a] = true
		}
	}
	var rest []int
	for i, v := range in {
		if !v {
			rest = append(rest, i)
		}
	}
	rng := rand.New(rand.NewPCG(seed, seed^0xbb67ae8584caa73b))
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	take := max(limit-(n-len(rest)), 0)
	for _, i := range rest[:min(take, len(rest))] {
		in[i] = true
	}
	var sub []int
	for i, v := range in {
		if v {
			sub = append(sub, i)
		}
	}
	return sub
}

// fitcHeldOut returns the held-out latents and shares of every training
// point (the rows of x) for a FITC classifier b whose EP ran on the points
// sub of x (in order; nil: all of them): their cavities, and for the
// other points, which the posterior never saw, their predictive
// distributions.
func fitcHeldOut(ctx context.Context, r *runner, b *Binary, x Rows, sub []int) (z, rho []float64, lost int, err error) {
	n, _ := x.Dims()
	z, rho = make([]float64, n), make([]float64, n)
	if sub == nil {
		lost = sparseHeldOut(b.Sparse, z, rho)
	} else {
		zs, vs := make([]float64, len(sub)), make([]float64, len(sub))
		lost = sparseHeldOut(b.Sparse, zs, vs)
		in := make([]bool, n)
		for k, i := range sub {
			z[i], rho[i], in[i] = zs[k], vs[k], true
		}
		var rest []int
		for i, v := range in {
			if !v {
				rest = append(rest, i)
			}
		}
		mean, vr := make([]float64, len(rest)), make([]float64, len(rest))
		if err := r.predictSparse(ctx, b.Sparse, x, rest, mean, vr); err != nil {
			return nil, nil, 0, err
		}
		for k, i := range rest {
			z[i], rho[i] = mean[k]/sqrtPos(1+vr[k]), vr[k]
		}
	}
	if err := priorShares(ctx, b, x, rho); err != nil {
		return nil, nil, 0, err
	}
	return z, rho, lost, nil
}

// budgetBound reports whether PASS-GP's budget bound in any batch.
func budgetBound(bs []BatchStats) bool {
	return slices.ContainsFunc(bs, func(b BatchStats) bool { return b.Trimmed })
}

// Streams of randomSubset: the FITC pass's inducing inputs (of the active
// set) and its search's sample (of the training points).
const inducingSalt, searchSalt = 0x6a09e667f3bcc909, 0x3c6ef372fe94f82b

// randomSubset returns m distinct indices of [0, n) in ascending order,
// drawn from seed and the stream salt, or nil when m >= n (all of them).
func randomSubset(seed, salt uint64, n, m int) []int {
	if m >= n {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, seed^salt))
	idx := slices.Clone(rng.Perm(n)[:m]) // not holding the permutation
	slices.Sort(idx)
	return idx
}

// majorityRate is the error rate of always predicting the larger of the
// classes truth (calib.Fit's 0 and 1).
func majorityRate(truth []int) float64 {
	pos := 0
	for _, t := range truth {
		pos += t
	}
	return float64(min(pos, len(truth)-pos)) / float64(len(truth))
}
