package ep

import (
	"context"
	"errors"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// gradientTo sets dst to ∂ log Z_EP/∂log θ of the FITC model at its
// current sites, right after a refresh (w holds g, the sites' β and P's
// factor). At an EP fixed point this is the derivative of the Gaussian
// term log N(μ̃ | 0, Q + Λ + S̃⁻¹) with the sites held fixed, as for full EP
// (Rasmussen & Williams eq. 5.27): the cavity terms' derivatives vanish
// there. With Σ_y = Q + D, D = Λ + S̃⁻¹ (points with τ̃ = 0 have infinite
// noise and drop out), α = Σ_y⁻¹μ̃, R = K_MM⁻¹K_MN and
// e_n = (α_n² − (Σ_y⁻¹)_nn)/2,
//
//	∂F = Σ C_NM∘∂K_NM + Σ C_MM∘∂K_MM + Σ_n e_n ∂(k_nn + jitter),
//	C_NM = α aᵀ − Σ_y⁻¹Rᵀ − 2 diag(e) Rᵀ,  a = Rα,
//	C_MM = −a aᵀ/2 + R Σ_y⁻¹ Rᵀ/2 + R diag(e) Rᵀ,
//
// from ∂Q = ∂K_NM R + Rᵀ∂K_MN − Rᵀ∂K_MM R and ∂Λ = diag(∂k_nn + ∂jitter −
// ∂Q_nn). In this file's variables (K_MM = L Lᵀ, U = K_NM L⁻ᵀ, t = τ̃∘g,
// Woodbury with P = I + UᵀTU): α = g∘ν̃ − t∘(Uβ), (Σ_y⁻¹)_nn = t_n −
// t_n²|L_P⁻¹u_n|², Rᵀ = U L⁻¹, Σ_y⁻¹Rᵀ = T U P⁻¹ L⁻¹ and R Σ_y⁻¹ Rᵀ =
// L⁻ᵀ(I − P⁻¹)L⁻¹. Two passes over U's blocks, O(N M²) with the kernel
// contractions O(N M d) (kernel.CrossGradTraceTo). The clamp of d_n at the
// jitter (rounding) is not differentiated.
func (f *FITC) gradientTo(ctx context.Context, dst []float64, u *fitcU, dg []float64, w *fitcWork) error {
	n, m := len(dg), f.m
	np := len(dst)
	lp := blas64.General{Rows: m, Cols: m, Stride: m, Data: f.FactorP}
	lm := f.lmGeneral()
	tau, nu := f.Sites.Tau, f.Sites.Nu
	alpha, e := make([]float64, n), make([]float64, n)
	ua := make([]float64, m) // Uᵀα, then a = L⁻ᵀUᵀα
	gm := mat.NewDense(m, m, nil)
	eu := make([]float64, len(w.buf))
	// Pass 1: α, e, Uᵀα and G = Uᵀ diag(e) U.
	for lo := 0; lo < n; lo += fitcBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(n, lo+fitcBlock)
		b := u.block(lo, hi, w.buf)
		blas64.Gemv(blas.NoTrans, 1, b, vec(f.Beta), 0, vec(alpha[lo:hi]))
		z := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: w.z}
		la.SolveLowerTransRightTo(z, lp, b)
		ebg := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: eu}
		for i := lo; i < hi; i++ {
			g := w.g[i]
			t := tau[i] * g
			alpha[i] = g*nu[i] - t*alpha[i]
			zr := z.Data[(i-lo)*m : (i-lo+1)*m]
			e[i] = (alpha[i]*alpha[i] - t + t*t*blas64.Dot(vec(zr), vec(zr))) / 2
			src := b.Data[(i-lo)*b.Stride : (i-lo)*b.Stride+m]
			row := eu[(i-lo)*m : (i-lo+1)*m]
			for j, v := range src {
				row[j] = e[i] * v
			}
		}
		blas64.Gemv(blas.Trans, 1, b, vec(alpha[lo:hi]), 1, vec(ua))
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, b, ebg, 1, gm.RawMatrix())
	}
	av := blas64.General{Rows: m, Cols: 1, Stride: 1, Data: ua}
	la.SolveLowerTransTo(av, lm, av)

	// C_MM = L⁻ᵀ (½(I − P⁻¹) + G) L⁻¹ − ½ a aᵀ.
	pinv := mat.NewDense(m, m, nil)
	la.CholInverseTo(pinv.RawMatrix(), lp)
	h := gm.RawMatrix()
	for i := range m {
		for j := range m {
			v := -pinv.At(i, j) / 2
			if i == j {
				v += 0.5
			}
			h.Data[i*h.Stride+j] += v
		}
	}
	ltri := blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: m, Stride: m, Data: f.lm}
	la.SolveLowerTransTo(h, lm, h)
	blas64.Trsm(blas.Right, blas.NoTrans, 1, ltri, h)
	for i := range m {
		for j := range m {
			h.Data[i*h.Stride+j] -= ua[i] * ua[j] / 2
		}
	}
	la.SymmetrizeLower(h)
	tmp := make([]float64, np)
	f.Kernel.GradTraceTo(dst, gm, f.Xm)
	f.Kernel.DiagGradTraceTo(tmp, e, u.x)
	addTo(dst, tmp)

	// Pass 2: C_NM = α aᵀ − (T U P⁻¹ + 2 diag(e) U) L⁻¹, block by block.
	ptri := blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: m, Stride: m, Data: f.FactorP}
	_, d := u.x.Dims()
	for lo := 0; lo < n; lo += fitcBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(n, lo+fitcBlock)
		b := u.block(lo, hi, w.buf)
		z := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: w.z}
		la.SolveLowerTransRightTo(z, lp, b)               // rows L_P⁻¹u_n
		blas64.Trsm(blas.Right, blas.NoTrans, 1, ptri, z) // rows P⁻¹u_n
		for i := lo; i < hi; i++ {
			t := tau[i] * w.g[i]
			zr := z.Data[(i-lo)*m : (i-lo+1)*m]
			src := b.Data[(i-lo)*b.Stride : (i-lo)*b.Stride+m]
			for j := range zr {
				zr[j] = t*zr[j] + 2*e[i]*src[j]
			}
		}
		blas64.Trsm(blas.Right, blas.NoTrans, 1, ltri, z)
		for i := lo; i < hi; i++ {
			zr := z.Data[(i-lo)*m : (i-lo+1)*m]
			for j := range zr {
				zr[j] = alpha[i]*ua[j] - zr[j]
			}
		}
		f.Kernel.CrossGradTraceTo(tmp, mat.NewDense(hi-lo, m, z.Data[:(hi-lo)*m]), u.x.Slice(lo, hi, 0, d).(*mat.Dense), f.Xm)
		addTo(dst, tmp)
	}
	for _, v := range dst {
		if math.IsNaN(v) {
			return errors.New("ep: InferFITCGrad: the gradient of log Z_EP is NaN")
		}
	}
	return nil
}

func addTo(dst, s []float64) {
	for i, v := range s {
		dst[i] += v
	}
}
