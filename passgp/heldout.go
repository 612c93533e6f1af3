package passgp

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/score"
)

// heldOutLatents returns, for every row i of the training data x, the
// latent z_i = m_i/√(1+v_i) of a predictive distribution that did not see
// point i's label, and the share rho_i = v_i/k(x_i, x_i) of the prior
// variance it leaves (calib.Calibration): an active point's cavity (paper
// eq. 3), an inactive point's predictive marginal (eq. 4), in one scoring
// pass over the inactive points (O(N·M²) time, O(chunk·M) memory).
// b.Active holds indices into x (-1: the invariance stage's points,
// skipped). It returns ctx.Err() within one chunk of a cancellation. An
// invariance stage's classifier (geometry g; nil: none) gives the points
// whose translations it trained on groupHeldOut's leave-group-out latents;
// lost counts those lost to rounding. A FITC classifier (Binary.Sparse)
// gets its cavities (sparseHeldOut).
func heldOutLatents(ctx context.Context, r *runner, b *Binary, x Rows, g *shiftGeom) (z, rho []float64, lost int, err error) {
	n, _ := x.Dims()
	if f := b.Sparse; f != nil && len(f.Mean) == n {
		return fitcHeldOut(ctx, r, b, x, nil)
	}
	z, rho = make([]float64, n), make([]float64, n)
	inA := make([]bool, n)
	var fixed map[int]meanVar
	if g != nil {
		xd, err := asDense(x)
		if err != nil {
			return nil, nil, 0, err
		}
		if fixed, lost, err = groupHeldOut(ctx, b, xd, g); err != nil {
			return nil, nil, 0, err
		}
	}
	for i, mv := range fixed {
		inA[i], z[i], rho[i] = true, mv.z(), mv.v
	}
	m := len(b.Y)
	cm, cv := make([]float64, m), make([]float64, m)
	b.Post.CavityTo(cm, cv)
	for k, a := range b.Active {
		if _, ok := fixed[a]; !ok && a >= 0 && a < n {
			inA[a] = true
			z[a], rho[a] = cm[k]/math.Sqrt(1+cv[k]), cv[k]
		}
	}
	var rows []int
	for i, in := range inA {
		if !in {
			rows = append(rows, i)
		}
	}
	mean, vr := make([]float64, len(rows)), make([]float64, len(rows))
	if err := r.scoreRows(ctx, b.Post, b.Kernel, b.X, x, rows, mean, vr, nil); err != nil {
		return nil, nil, 0, err
	}
	for k, i := range rows {
		z[i], rho[i] = mean[k]/sqrtPos(1+vr[k]), vr[k]
	}
	if err := priorShares(ctx, b, x, rho); err != nil {
		return nil, nil, 0, err
	}
	return z, rho, lost, nil
}

// meanVar is a latent marginal N(m, v).
type meanVar struct{ m, v float64 }

// z returns m/√(1+v), the argument of Φ in q(y=+1|x).
func (mv meanVar) z() float64 { return mv.m / sqrtPos(1+mv.v) }

// priorShares turns the variances v[i] of the marginals at the rows of x
// into the shares v_i/k(x_i, x_i) of b's prior variances, in [0, 1]
// (calib.Calibration), reading x in chunks; it returns x's read error, or
// ctx's, checked between chunks.
func priorShares(ctx context.Context, b *Binary, x Rows, v []float64) error {
	if xd, ok := x.(denseRows); ok {
		k := make([]float64, len(v))
		b.Kernel.DiagTo(k, xd.x)
		for i := range v {
			v[i] = PriorShare(v[i], k[i])
		}
		return nil
	}
	n, d := x.Dims()
	m := min(score.Chunk, n)
	buf, k := make([]float64, m*d), make([]float64, m)
	var idx []int
	for lo := 0; lo < n; lo += score.Chunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+score.Chunk, n)
		idx = spanTo(idx, lo, hi)
		x.RowsTo(buf, idx)
		b.Kernel.DiagTo(k[:hi-lo], mat.NewDense(hi-lo, d, buf[:(hi-lo)*d]))
		for i := lo; i < hi; i++ {
			v[i] = PriorShare(v[i], k[i-lo])
		}
	}
	return x.Err()
}

// PriorShare returns v/k clamped to [0, 1]: a posterior variance is at
// most the prior's, up to rounding; a marginal without variance
// information (NaN) or a zero prior variance gives 0.
func PriorShare(v, k float64) float64 {
	if !(k > 0) || math.IsNaN(v) {
		return 0
	}
	return min(max(v/k, 0), 1)
}

// LatentErrorRate returns the fraction of i whose decision sign(z_i)
// (z_i > 0: +1) differs from y_i (±1), for the latents z_i = m_i/√(1+v_i)
// of the predictive distribution (paper eq. 4: q(+1|x_i) = Φ(z_i)).
func LatentErrorRate(z, y []float64) float64 {
	if len(z) == 0 {
		return 0
	}
	e := 0
	for i, v := range z {
		if (v > 0) != (y[i] > 0) {
			e++
		}
	}
	return float64(e) / float64(len(z))
}

// ArgmaxLatent returns the index of the largest entry of one row of
// latents (ties: the smallest index): MultiClass's decision.
func ArgmaxLatent(row []float64) int { return floats.MaxIdx(row) }

// CalibrateBinaryRows fits the Platt calibration (calib.FitBinary) of a
// trained binary classifier b on its held-out latents on the training
// data x, y (±1), read through Rows: the fit Train makes
// (Result.Calibration), for a classifier trained earlier. It has no image
// geometry: for a classifier of an invariance stage it uses the plain
// cavities, which still see each image's translations; Train and
// TrainAugmented leave those out (groupHeldOut).
func CalibrateBinaryRows(b *Binary, x Rows, y []float64) (*calib.Calibration, error) {
	n, _ := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("passgp: CalibrateBinaryRows: %d labels for %d rows", len(y), n)
	}
	z, rho, _, err := heldOutLatents(context.Background(), newRunner(la.Threads()), b, x, nil)
	if err != nil {
		return nil, err
	}
	return calib.FitBinary(z, rho, y)
}
