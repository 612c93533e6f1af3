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
// t_n² u_nᵀP⁻¹u_n, Rᵀ = U L⁻¹, Σ_y⁻¹Rᵀ = T U P⁻¹ L⁻¹ and R Σ_y⁻¹ Rᵀ =
// L⁻ᵀ(I − P⁻¹)L⁻¹. With P⁻¹ and L⁻¹ formed once (O(M³)), one pass over
// U's blocks does the O(N M²) work as level-3 products: U_b P⁻¹ and
// U_bᵀ diag(e) U_b (DGEMM), and (T U_b P⁻¹ + 2 diag(e) U_b) L⁻¹ (DTRMM,
// which runs at over twice DTRSM's rate here; docs/performance.md). P's
// eigenvalues are at least 1, so its explicit inverse loses nothing. The
// term α aᵀ of C_NM needs a, the sum over all blocks: with one block it is
// added before the kernel contraction (kernel.CrossGradTraceTo, O(N M d));
// with several, each block's contraction of it follows the pass (the
// contraction is linear in C_NM). The clamp of d_n at the jitter (rounding)
// is not differentiated.
func (f *FITC) gradientTo(ctx context.Context, dst []float64, u *fitcU, dg []float64, w *fitcWork) error {
	n, m := len(dg), f.m
	gr := &fitcGrad{f: f, u: u, w: w, n: n, m: m,
		pinv:  blas64.General{Rows: m, Cols: m, Stride: m, Data: w.scratch(m * m)},
		linv:  blas64.General{Rows: m, Cols: m, Stride: m, Data: w.scratch(m * m)},
		alpha: make([]float64, n),
		e:     make([]float64, n),
		ua:    make([]float64, m),
		gm:    mat.NewDense(m, m, w.scratch(m*m)),
		eu:    w.scratch(len(w.z)),
		tmp:   make([]float64, len(dst)),
	}
	gr.gm.Zero() // accumulated
	la.CholInverseTo(gr.pinv, blas64.General{Rows: m, Cols: m, Stride: m, Data: f.FactorP})
	la.InvLowerTo(gr.linv, f.lmGeneral())
	clear(dst)
	if err := gr.pass(ctx, dst); err != nil {
		return err
	}
	gr.cmm()
	// Σ C_MM∘∂K_MM + Σ_n e_n ∂(k_nn + jitter), then the α aᵀ terms.
	f.Kernel.GradTraceTo(gr.tmp, gr.gm, f.Xm)
	addTo(dst, gr.tmp)
	f.Kernel.DiagGradTraceTo(gr.tmp, gr.e, u.x)
	addTo(dst, gr.tmp)
	gr.rankOne(dst)
	for _, v := range dst {
		if math.IsNaN(v) {
			return errors.New("ep: InferFITCGrad: the gradient of log Z_EP is NaN")
		}
	}
	return nil
}

// fitcGrad is the state of one gradientTo: the factors and inverses it
// multiplies with and the quantities its pass over U's blocks shares.
type fitcGrad struct {
	f    *FITC
	u    *fitcU
	w    *fitcWork
	n, m int
	// pinv is P⁻¹ (symmetric, both triangles), linv L⁻¹ (lower).
	pinv, linv blas64.General
	// alpha is α and e the e_n of the formulas above; ua is Uᵀα, then
	// a = L⁻ᵀUᵀα.
	alpha, e, ua []float64
	gm           *mat.Dense // G = Uᵀ diag(e) U, then C_MM
	eu           []float64  // a block of diag(e) U rows
	tmp          []float64  // one kernel contraction
	// last is the one block's −(T U P⁻¹ + 2 diag(e) U) L⁻¹ (in w.z), whose
	// contraction waits for α aᵀ (nil with several blocks).
	last *mat.Dense
}

// pass is the pass over U's blocks: α, e, Uᵀα, G = Uᵀ diag(e) U and the
// blocks of −(T U P⁻¹ + 2 diag(e) U) L⁻¹, each contracted into dst (with
// one block, kept in last); it then turns Uᵀα into a = L⁻ᵀUᵀα.
func (gr *fitcGrad) pass(ctx context.Context, dst []float64) error {
	f, u, w, n, m := gr.f, gr.u, gr.w, gr.n, gr.m
	tau, nu := f.Sites.Tau, f.Sites.Nu
	alpha, e, eu := gr.alpha, gr.e, gr.eu
	ltri := blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: m, Stride: m, Data: gr.linv.Data}
	_, d := u.x.Dims()
	for lo := 0; lo < n; lo += fitcBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(n, lo+fitcBlock)
		b := u.block(lo, hi, w.buf)
		blas64.Gemv(blas.NoTrans, 1, b, vec(f.Beta), 0, vec(alpha[lo:hi]))
		z := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: w.z[:(hi-lo)*m]}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, b, gr.pinv, 0, z) // rows P⁻¹u_n
		ebg := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: eu[:(hi-lo)*m]}
		for i := lo; i < hi; i++ {
			g := w.g[i]
			t := tau[i] * g
			alpha[i] = g*nu[i] - t*alpha[i]
			zr := z.Data[(i-lo)*m : (i-lo+1)*m]
			src := b.Data[(i-lo)*b.Stride : (i-lo)*b.Stride+m]
			e[i] = (alpha[i]*alpha[i] - t + t*t*blas64.Dot(vec(zr), vec(src))) / 2
			row := eu[(i-lo)*m : (i-lo+1)*m]
			for j, v := range src {
				row[j] = e[i] * v
				zr[j] = -t*zr[j] - 2*row[j]
			}
		}
		blas64.Gemv(blas.Trans, 1, b, vec(alpha[lo:hi]), 1, vec(gr.ua))
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, b, ebg, 1, gr.gm.RawMatrix())
		blas64.Trmm(blas.Right, blas.NoTrans, 1, ltri, z)
		c := mat.NewDense(hi-lo, m, z.Data)
		if lo == 0 && hi == n {
			gr.last = c
			continue
		}
		f.Kernel.CrossGradTraceTo(gr.tmp, c, u.x.Slice(lo, hi, 0, d).(*mat.Dense), f.Xm)
		addTo(dst, gr.tmp)
	}
	a := make([]float64, m)
	blas64.Gemv(blas.Trans, 1, gr.linv, vec(gr.ua), 0, vec(a))
	copy(gr.ua, a)
	return nil
}

// cmm turns G into C_MM = L⁻ᵀ (½(I − P⁻¹) + G) L⁻¹ − ½ a aᵀ, symmetric.
func (gr *fitcGrad) cmm() {
	m, ua := gr.m, gr.ua
	h := gr.gm.RawMatrix()
	for i := range m {
		for j := range m {
			v := -gr.pinv.Data[i*m+j] / 2
			if i == j {
				v += 0.5
			}
			h.Data[i*h.Stride+j] += v
		}
	}
	ltri := blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: m, Stride: m, Data: gr.linv.Data}
	blas64.Trmm(blas.Left, blas.Trans, 1, ltri, h)
	blas64.Trmm(blas.Right, blas.NoTrans, 1, ltri, h)
	for i := range m {
		for j := range m {
			h.Data[i*h.Stride+j] -= ua[i] * ua[j] / 2
		}
	}
	la.SymmetrizeLower(h)
}

// rankOne adds the contraction of C_NM's term α aᵀ to dst: with one block
// together with the block's other term (last), else block by block (no U
// needed: the contraction takes the inputs).
func (gr *fitcGrad) rankOne(dst []float64) {
	f, x, n, m := gr.f, gr.u.x, gr.n, gr.m
	_, d := x.Dims()
	for lo := 0; lo < n; lo += fitcBlock {
		hi := min(n, lo+fitcBlock)
		c := gr.last
		if c == nil {
			c = mat.NewDense(hi-lo, m, gr.w.z[:(hi-lo)*m])
			c.Zero()
		}
		raw := c.RawMatrix()
		for i := lo; i < hi; i++ {
			row := raw.Data[(i-lo)*raw.Stride : (i-lo)*raw.Stride+m]
			blas64.Axpy(gr.alpha[i], vec(gr.ua), vec(row))
		}
		f.Kernel.CrossGradTraceTo(gr.tmp, c, x.Slice(lo, hi, 0, d).(*mat.Dense), f.Xm)
		addTo(dst, gr.tmp)
	}
}

func addTo(dst, s []float64) {
	for i, v := range s {
		dst[i] += v
	}
}
