package ep

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// PredictJointCrossTo sets mean (m) and cov (m×m) to the joint predictive
// distribution of the latents of m points, from their cross-covariance
// kstar (m×n) with the training inputs and their prior covariance kss
// (m×m; add the kernel's jitter to its diagonal for points to be treated
// as training latents):
//
//	mean = K* b,  cov = K** − (L⁻¹ S^½ K*ᵀ)ᵀ (L⁻¹ S^½ K*ᵀ),
//
// PredictCrossTo's mean and variance on the diagonal, with the
// covariances between the points beside it (what GPflow's full_cov
// prediction gives). One triangular solve with m right-hand sides and one
// m×m×n product. kstar and kss are not modified. It panics on mismatched
// dimensions.
func (p *Posterior) PredictJointCrossTo(mean []float64, cov *mat.Dense, kstar, kss *mat.Dense) {
	m, c := kstar.Dims()
	if c != p.n {
		panic(fmt.Sprintf("ep: PredictJointCrossTo: kstar has %d columns, want %d", c, p.n))
	}
	if r, cc := kss.Dims(); r != m || cc != m || len(mean) < m {
		panic("ep: PredictJointCrossTo: kss must be m×m and mean of length m")
	}
	if r, cc := cov.Dims(); r != m || cc != m {
		panic("ep: PredictJointCrossTo: cov must be m×m")
	}
	cov.Copy(kss)
	if m == 0 {
		return
	}
	if p.n == 0 {
		clear(mean[:m])
		return
	}
	ks := kstar.RawMatrix()
	blas64.Gemv(blas.NoTrans, 1, ks, vec(p.Alpha), 0, blas64.Vector{N: m, Inc: 1, Data: mean})
	buf := la.GetScratch(m * c)
	defer la.PutScratch(buf)
	w := blas64.General{Rows: m, Cols: c, Stride: c, Data: (*buf)[:m*c]}
	for i := range m {
		r := w.Data[i*c : i*c+c]
		copy(r, ks.Data[i*ks.Stride:i*ks.Stride+c])
		for j, s := range p.sw {
			r[j] *= s
		}
	}
	la.SolveLowerTransRightTo(w, p.general(p.l), w) // row i: (L⁻¹ S^½ k*_i)ᵀ
	blas64.Gemm(blas.NoTrans, blas.Trans, -1, w, w, 1, cov.RawMatrix())
}
