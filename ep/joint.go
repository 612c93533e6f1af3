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
	p.PredictJointBlocksTo(mean, []*mat.Dense{cov}, kstar, []*mat.Dense{kss})
}

// PredictJointBlocksTo is PredictJointCrossTo for groups of points whose
// covariances with other groups are not wanted: the rows of kstar form
// consecutive blocks, block b of kss[b]'s size, and covs[b] is set to
// that block's joint covariance. mean gets every row's mean. One
// triangular solve for all rows, as PredictJointCrossTo, but the products
// cost Σ t_b²·n instead of m²·n. kstar and kss are not modified. It
// panics on mismatched dimensions.
func (p *Posterior) PredictJointBlocksTo(mean []float64, covs []*mat.Dense, kstar *mat.Dense, kss []*mat.Dense) {
	m, c := kstar.Dims()
	if c != p.n {
		panic(fmt.Sprintf("ep: PredictJointBlocksTo: kstar has %d columns, want %d", c, p.n))
	}
	if len(covs) != len(kss) || len(mean) < m {
		panic("ep: PredictJointBlocksTo: one cov per kss block and a mean per row")
	}
	rows := 0
	for b, k := range kss {
		t, tc := k.Dims()
		if r, rc := covs[b].Dims(); t != tc || r != t || rc != t {
			panic("ep: PredictJointBlocksTo: kss and cov blocks must be square and of one size")
		}
		covs[b].Copy(k)
		rows += t
	}
	if rows != m {
		panic(fmt.Sprintf("ep: PredictJointBlocksTo: blocks of %d rows for %d rows of kstar", rows, m))
	}
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
	lo := 0
	for _, cv := range covs {
		t, _ := cv.Dims()
		wb := blas64.General{Rows: t, Cols: c, Stride: c, Data: w.Data[lo*c : (lo+t)*c]}
		blas64.Gemm(blas.NoTrans, blas.Trans, -1, wb, wb, 1, cv.RawMatrix())
		lo += t
	}
}
