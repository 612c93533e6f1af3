package passgp

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"
)

// heldOutLatents returns, for every row i of the training data x, the
// latent z_i = m_i/√(1+v_i) of a predictive distribution that did not see
// point i's label: the cavity (leave-one-out) marginal of an active point
// (paper eq. 3) and the predictive marginal of an inactive point (paper
// eq. 4), which the final posterior never saw. One scoring pass over the
// inactive points, O(N·M²) time and O(chunk·M) memory. b.Active holds
// indices into x (-1 for points of the invariance stage, skipped). It
// returns ctx.Err() within one scoring chunk of a cancellation. For a
// classifier of an invariance stage of geometry g (nil: none), the points
// whose translations it trained on get the leave-group-out latents of
// groupHeldOut instead; lost counts those lost to rounding. A classifier
// with a FITC pass (Binary.Sparse) gets its cavities (sparseHeldOut).
func heldOutLatents(ctx context.Context, r *runner, b *Binary, x *mat.Dense, g *shiftGeom) (z []float64, lost int, err error) {
	n, _ := x.Dims()
	z = make([]float64, n)
	if f := b.Sparse; f != nil && len(f.Mean) == n {
		return z, sparseHeldOut(f, z), nil
	}
	inA := make([]bool, n)
	var fixed map[int]float64
	if g != nil {
		if fixed, lost, err = groupHeldOut(ctx, b, x, g); err != nil {
			return nil, 0, err
		}
	}
	for i, v := range fixed {
		inA[i], z[i] = true, v
	}
	m := len(b.Y)
	cm, cv := make([]float64, m), make([]float64, m)
	b.Post.CavityTo(cm, cv)
	for k, a := range b.Active {
		if _, ok := fixed[a]; !ok && a >= 0 && a < n {
			inA[a] = true
			z[a] = cm[k] / math.Sqrt(1+cv[k])
		}
	}
	var rows []int
	for i, in := range inA {
		if !in {
			rows = append(rows, i)
		}
	}
	mean, vr := make([]float64, len(rows)), make([]float64, len(rows))
	if err := r.predictRowsContext(ctx, b.Post, b.Kernel, b.X, x, rows, mean, vr); err != nil {
		return nil, 0, err
	}
	for k, i := range rows {
		z[i] = mean[k] / sqrtPos(1+vr[k])
	}
	return z, lost, nil
}
