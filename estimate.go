package passgpfast

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
	"github.com/passgp-fast/passgp-fast/score"
)

// reselectNear is how many of an active point's nearest inactive points
// reselected adds without it. Cost: T+1 = 5 predictions of O(M²) per
// active point, O(M³) in all, next to the held-out pass's O(N·M²); with
// 1, 4 and 16 the estimate on LetterRecognition's training set (one
// mlbench split) was 4.18%, 3.87% and 3.81%, on Vowel's 4.76%, 4.76% and
// 4.47%: more neighbours move it little.
const reselectNear = 4

// estimateReselects reports whether the held-out estimate rescores the
// active points of o's classifiers (estimateLatents): PASS-GP's, not the
// other methods', whose selection follows other rules, nor the
// invariance stage's, whose held-out latents leave groups of images out.
func estimateReselects(o passgp.Options) bool {
	return o.Method == passgp.PASSGP && o.Augment == nil
}

// estimateLatents returns the latents and shares that the held-out
// estimate scores (crossFitMetrics) for the classifiers of m trained on
// the rows x (labels y) with the held-out latents z, rho of the rows held
// (nil: all; passgp.HeldOutRows) and their classes truth: z and rho, with
// each active point of a PASS-GP classifier rescored by reselected where
// rescore is set. The classifiers are independent: side by side where
// BLAS is single-threaded (la.PoolWorkers), each into its own columns.
func estimateLatents(ctx context.Context, m *model.Model, x passgp.Rows, y []float64, held []int, truth []int, rescore bool, z, rho *mat.Dense) (*mat.Dense, *mat.Dense, error) {
	ze, re := mat.DenseCopyOf(z), mat.DenseCopyOf(rho)
	if !rescore {
		return ze, re, nil
	}
	k := len(m.Binaries)
	zs, rs, errs := make([][]float64, k), make([][]float64, k), make([]error, k)
	la.ForEach(la.PoolWorkers(k), k, func(_, c int) {
		xh, _, bh := passgp.HeldView(x, y, m.Binaries[c], held)
		zc, rc := mat.Col(nil, c, z), mat.Col(nil, c, rho)
		zs[c], rs[c], errs[c] = reselected(ctx, bh, xh, binaryTargets(m, truth, c), zc, rc)
	})
	for c := range k {
		if errs[c] != nil {
			return nil, nil, errs[c]
		}
		ze.SetCol(c, zs[c])
		re.SetCol(c, rs[c])
	}
	return ze, re, nil
}

// reselected returns z and rho, one classifier's held-out latents and
// shares, with each active point's cavity replaced by its latent with its
// neighbourhood filled in: as if the selection had run without it.
//
// Why: an active point's cavity leaves out its own site, but the inactive
// points it explained have none either, though the selection would have
// included them had the point been missing. Where near-identical points
// have one representative in A (repeated utterances, duplicated feature
// vectors) the cavity then predicts the point as if its neighbourhood
// were empty, and the estimate is pessimistic (docs/method.md, Section 5).
// So for active point k this takes its reselectNear nearest inactive
// points (largest prior correlation), removes k's site and adds their
// ADF sites, nearest first, before predicting k: exact Gaussian updates
// of the joint marginal of f_k and its neighbours (Rasmussen & Williams
// 2006, Sec. 3.6). Every neighbour, not only those that the inclusion
// rule would take at the final posterior without k: the selection scored
// them in its first pass under a posterior of fewer points, when more of
// them fell below p_inc, and a neighbour that the posterior explains
// gets a site of little weight (its moment match hardly moves its
// marginal). A classifier with a FITC posterior keeps its cavities: under
// FITC every point has a site. y holds the ±1 labels of the rows of x.
func reselected(ctx context.Context, b *passgp.Binary, x passgp.Rows, y []float64, z, rho []float64) ([]float64, []float64, error) {
	zr, rr := append([]float64(nil), z...), append([]float64(nil), rho...)
	if b.Sparse != nil || b.Post == nil || len(b.Y) == 0 {
		return zr, rr, nil
	}
	near, err := nearestInactive(ctx, b, x)
	if err != nil {
		return nil, nil, err
	}
	var ks []int // active points with neighbours
	for k, js := range near {
		if js[0] >= 0 && b.Active[k] >= 0 {
			ks = append(ks, k)
		}
	}
	const per = score.Chunk / (reselectNear + 1) // rows of a joint prediction
	for lo := 0; lo < len(ks); lo += per {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if err := reselectChunk(b, x, y, ks[lo:min(lo+per, len(ks))], near, zr, rr); err != nil {
			return nil, nil, err
		}
	}
	return zr, rr, ctx.Err()
}

// neighbourhood is the joint Gaussian marginal of an active latent f_k
// (index 0) and its neighbours' latents under b's posterior.
type neighbourhood struct {
	rows  []int     // the neighbours' rows of x
	prior float64   // k(x_k, x_k)
	mean  []float64 // means, f_k first
	cov   []float64 // covariance, row-major
}

// reselectChunk sets zr and rr of the active points ks from their
// neighbourhoods, whose joint marginals of f_k and its neighbours' latents
// come from one prediction (ep.Posterior.PredictJointBlocksTo).
func reselectChunk(b *passgp.Binary, x passgp.Rows, y []float64, ks []int, near [][reselectNear]int, zr, rr []float64) error {
	_, d := x.Dims()
	hoods := make([]neighbourhood, len(ks))
	var all []int
	for i, k := range ks {
		for _, j := range near[k] {
			if j >= 0 {
				hoods[i].rows = append(hoods[i].rows, j)
			}
		}
		all = append(all, hoods[i].rows...)
	}
	xn := make([]float64, len(all)*d)
	x.RowsTo(xn, all) // one read a chunk
	if err := x.Err(); err != nil {
		return err
	}
	// Rows: per point, x_k then its neighbours, a block each.
	rows := len(ks) + len(all)
	xs := mat.NewDense(rows, d, nil)
	kss, covs := make([]*mat.Dense, len(ks)), make([]*mat.Dense, len(ks))
	jit := b.Kernel.DiagJitter()
	r := 0
	for i, k := range ks {
		h := &hoods[i]
		t := len(h.rows) + 1
		xs.SetRow(r, b.X.RawRowView(k))
		copy(xs.RawMatrix().Data[(r+1)*d:(r+t)*d], xn[:(t-1)*d])
		xn = xn[(t-1)*d:]
		// f_k is an active latent and the neighbours' would be: their
		// priors carry the training covariance's jitter.
		kss[i] = mat.NewDense(t, t, nil)
		xb := xs.Slice(r, r+t, 0, d).(*mat.Dense)
		b.Kernel.CrossTo(kss[i], xb, xb)
		for a := range t {
			kss[i].Set(a, a, kss[i].At(a, a)+jit)
		}
		h.prior = kss[i].At(0, 0) - jit
		h.cov = make([]float64, t*t)
		covs[i] = mat.NewDense(t, t, h.cov)
		r += t
	}
	kstar := mat.NewDense(rows, len(b.Y), nil)
	b.Kernel.CrossTo(kstar, xs, b.X)
	r = 0
	for i, k := range ks { // f_k's covariance with itself among the active latents
		kstar.Set(r, k, kstar.At(r, k)+jit)
		r += len(hoods[i].rows) + 1
	}
	mean := make([]float64, rows)
	b.Post.PredictJointBlocksTo(mean, covs, kstar, kss)
	r = 0
	for i, k := range ks {
		h := &hoods[i]
		t := len(h.rows) + 1
		h.mean = mean[r : r+t]
		r += t
		if h.reselect(b, k, y) {
			a := b.Active[k]
			zr[a], rr[a] = h.mean[0]/math.Sqrt(1+h.cov[0]), passgp.PriorShare(h.cov[0], h.prior)
		}
	}
	return nil
}

// reselect removes active point k's site from h and adds its neighbours'
// ADF sites, nearest first, each matched on the marginal that the ones
// before it left, and reports whether it added any and h is still a
// proper Gaussian at f_k.
func (h *neighbourhood) reselect(b *passgp.Binary, k int, y []float64) bool {
	tau, nu := b.Post.Sites.Tau[k], b.Post.Sites.Nu[k]
	if !h.update(0, -tau, -nu) {
		return false
	}
	t, added := len(h.mean), false
	for a := 1; a < t; a++ {
		v := h.cov[a*t+a]
		if !(v > 0) {
			continue
		}
		st, sn := ep.MatchSite(y[h.rows[a-1]], h.mean[a], v, b.Post.Flip)
		if !(st > 0) || math.IsInf(st, 0) || math.IsNaN(sn) || math.IsInf(sn, 0) {
			continue // no usable moment match: the point adds nothing
		}
		if !h.update(a, st, sn) {
			return false
		}
		added = true
	}
	return added && h.cov[0] > 0
}

// update multiplies h by the Gaussian site exp(−τ f_a²/2 + ν f_a) (a
// negative τ divides a site out): a rank-one update of mean and
// covariance. It reports false, leaving h unchanged, where the result
// would not be a proper Gaussian.
func (h *neighbourhood) update(a int, tau, nu float64) bool {
	t := len(h.mean)
	caa := h.cov[a*t+a]
	den := 1 + tau*caa
	if !(den > 0) {
		return false
	}
	var buf [reselectNear + 1]float64 // t ≤ reselectNear+1: no allocation per update
	ca := buf[:t]
	for i := range t {
		ca[i] = h.cov[i*t+a]
	}
	g := (nu - tau*h.mean[a]) / den
	for i := range t {
		h.mean[i] += ca[i] * g
		for j := range t {
			h.cov[i*t+j] -= ca[i] * ca[j] * tau / den
		}
	}
	return true
}

// nearestInactive returns, for each active point a of b, the reselectNear
// rows of x outside the active set of largest prior correlation
// k(x_a, x_j)/√(k(x_a, x_a) k(x_j, x_j)) with it, most correlated first
// (-1 where there are fewer), reading x in chunks: O(N·M·d).
func nearestInactive(ctx context.Context, b *passgp.Binary, x passgp.Rows) ([][reselectNear]int, error) {
	n, d := x.Dims()
	m := len(b.Y)
	inA := make([]bool, n)
	for _, a := range b.Active {
		if a >= 0 && a < n {
			inA[a] = true
		}
	}
	da := make([]float64, m)
	b.Kernel.DiagTo(da, b.X)
	best, corr := make([][reselectNear]int, m), make([][reselectNear]float64, m)
	for k := range best {
		for t := range reselectNear {
			best[k][t], corr[k][t] = -1, math.Inf(-1)
		}
	}
	var rows []int
	buf := make([]float64, score.Chunk*d)
	kc := make([]float64, score.Chunk*m)
	dj := make([]float64, score.Chunk)
	for lo := 0; lo < n; lo += score.Chunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rows = rows[:0]
		for i := lo; i < min(lo+score.Chunk, n); i++ {
			if !inA[i] {
				rows = append(rows, i)
			}
		}
		if len(rows) == 0 {
			continue
		}
		c := len(rows)
		x.RowsTo(buf[:c*d], rows)
		xc := mat.NewDense(c, d, buf[:c*d])
		kx := mat.NewDense(c, m, kc[:c*m])
		b.Kernel.CrossTo(kx, xc, b.X)
		b.Kernel.DiagTo(dj[:c], xc)
		for r, i := range rows {
			for k, v := range kx.RawRowView(r) {
				if s := v / math.Sqrt(dj[r]*da[k]); s > corr[k][reselectNear-1] {
					insertTop(&best[k], &corr[k], i, s)
				}
			}
		}
	}
	return best, x.Err()
}

// insertTop puts row i of correlation s into the descending top list.
func insertTop(rows *[reselectNear]int, corr *[reselectNear]float64, i int, s float64) {
	t := reselectNear - 1
	for t > 0 && corr[t-1] < s {
		rows[t], corr[t] = rows[t-1], corr[t-1]
		t--
	}
	rows[t], corr[t] = i, s
}
