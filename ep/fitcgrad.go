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
	gr := &fitcGrad{f: f, u: u, w: w, n: n, m: m,
		lp:    blas64.General{Rows: m, Cols: m, Stride: m, Data: f.FactorP},
		lm:    f.lmGeneral(),
		ltri:  blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: m, Stride: m, Data: f.lm},
		alpha: make([]float64, n),
		e:     make([]float64, n),
		ua:    make([]float64, m),
		gm:    mat.NewDense(m, m, nil),
		eu:    make([]float64, len(w.buf)),
		tmp:   make([]float64, len(dst)),
	}
	if err := gr.pass1(ctx); err != nil {
		return err
	}
	gr.cmm()
	// Σ C_MM∘∂K_MM + Σ_n e_n ∂(k_nn + jitter), then the C_NM terms.
	f.Kernel.GradTraceTo(dst, gr.gm, f.Xm)
	f.Kernel.DiagGradTraceTo(gr.tmp, gr.e, u.x)
	addTo(dst, gr.tmp)
	if err := gr.pass2(ctx, dst); err != nil {
		return err
	}
	for _, v := range dst {
		if math.IsNaN(v) {
			return errors.New("ep: InferFITCGrad: the gradient of log Z_EP is NaN")
		}
	}
	return nil
}

// fitcGrad is the state of one gradientTo: the factors it solves with
// and the quantities its two passes over U's blocks share.
type fitcGrad struct {
	f    *FITC
	u    *fitcU
	w    *fitcWork
	n, m int
	lp   blas64.General    // P's factor L_P
	lm   blas64.General    // K_MM's factor L
	ltri blas64.Triangular // L, for Trsm
	// alpha is α and e the e_n of the formulas above; ua is Uᵀα, then
	// a = L⁻ᵀUᵀα.
	alpha, e, ua []float64
	gm           *mat.Dense // G = Uᵀ diag(e) U, then C_MM
	eu           []float64  // a block of diag(e) U rows
	tmp          []float64  // one kernel contraction, added to dst
}

// pass1 is the first pass over U's blocks: α, e, Uᵀα and G = Uᵀ diag(e)
// U; it then turns Uᵀα into a = L⁻ᵀUᵀα.
func (gr *fitcGrad) pass1(ctx context.Context) error {
	f, u, w, n, m := gr.f, gr.u, gr.w, gr.n, gr.m
	tau, nu := f.Sites.Tau, f.Sites.Nu
	alpha, e, eu := gr.alpha, gr.e, gr.eu
	for lo := 0; lo < n; lo += fitcBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(n, lo+fitcBlock)
		b := u.block(lo, hi, w.buf)
		blas64.Gemv(blas.NoTrans, 1, b, vec(f.Beta), 0, vec(alpha[lo:hi]))
		z := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: w.z}
		la.SolveLowerTransRightTo(z, gr.lp, b)
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
		blas64.Gemv(blas.Trans, 1, b, vec(alpha[lo:hi]), 1, vec(gr.ua))
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, b, ebg, 1, gr.gm.RawMatrix())
	}
	av := blas64.General{Rows: m, Cols: 1, Stride: 1, Data: gr.ua}
	la.SolveLowerTransTo(av, gr.lm, av)
	return nil
}

// cmm turns G into C_MM = L⁻ᵀ (½(I − P⁻¹) + G) L⁻¹ − ½ a aᵀ, symmetric.
func (gr *fitcGrad) cmm() {
	m, ua := gr.m, gr.ua
	pinv := mat.NewDense(m, m, nil)
	la.CholInverseTo(pinv.RawMatrix(), gr.lp)
	h := gr.gm.RawMatrix()
	for i := range m {
		for j := range m {
			v := -pinv.At(i, j) / 2
			if i == j {
				v += 0.5
			}
			h.Data[i*h.Stride+j] += v
		}
	}
	la.SolveLowerTransTo(h, gr.lm, h)
	blas64.Trsm(blas.Right, blas.NoTrans, 1, gr.ltri, h)
	for i := range m {
		for j := range m {
			h.Data[i*h.Stride+j] -= ua[i] * ua[j] / 2
		}
	}
	la.SymmetrizeLower(h)
}

// pass2 is the second pass over U's blocks: C_NM = α aᵀ − (T U P⁻¹ +
// 2 diag(e) U) L⁻¹, block by block, its kernel contraction added to dst.
func (gr *fitcGrad) pass2(ctx context.Context, dst []float64) error {
	f, u, w, n, m := gr.f, gr.u, gr.w, gr.n, gr.m
	tau, alpha, e, ua := f.Sites.Tau, gr.alpha, gr.e, gr.ua
	ptri := blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: m, Stride: m, Data: f.FactorP}
	_, d := u.x.Dims()
	for lo := 0; lo < n; lo += fitcBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(n, lo+fitcBlock)
		b := u.block(lo, hi, w.buf)
		z := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: w.z}
		la.SolveLowerTransRightTo(z, gr.lp, b)            // rows L_P⁻¹u_n
		blas64.Trsm(blas.Right, blas.NoTrans, 1, ptri, z) // rows P⁻¹u_n
		for i := lo; i < hi; i++ {
			t := tau[i] * w.g[i]
			zr := z.Data[(i-lo)*m : (i-lo+1)*m]
			src := b.Data[(i-lo)*b.Stride : (i-lo)*b.Stride+m]
			for j := range zr {
				zr[j] = t*zr[j] + 2*e[i]*src[j]
			}
		}
		blas64.Trsm(blas.Right, blas.NoTrans, 1, gr.ltri, z)
		for i := lo; i < hi; i++ {
			zr := z.Data[(i-lo)*m : (i-lo+1)*m]
			for j := range zr {
				zr[j] = alpha[i]*ua[j] - zr[j]
			}
		}
		f.Kernel.CrossGradTraceTo(gr.tmp, mat.NewDense(hi-lo, m, z.Data[:(hi-lo)*m]), u.x.Slice(lo, hi, 0, d).(*mat.Dense), f.Xm)
		addTo(dst, gr.tmp)
	}
	return nil
}

func addTo(dst, s []float64) {
	for i, v := range s {
		dst[i] += v
	}
}
