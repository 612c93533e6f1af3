package ep

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
)

// This file holds EP for the FITC approximation of a GP classifier
// (Snelson & Ghahramani 2006; for classification with EP, Naish-Guzman &
// Holden 2008, "The generalized FITC approximation"): every one of the N
// training points has a site, and the prior covariance of their latents is
// replaced by one of rank M plus a diagonal,
//
//	Σ₀ = Q + Λ,  Q = K_NM K_MM⁻¹ K_MN,  Λ = diag(K_NN − Q),
//
// with M inducing inputs (here: an active set). Writing K_MM = L Lᵀ and
// U = K_NM L⁻ᵀ (row n is u_n = L⁻¹ k_n), the latents are f = U w + e with
// w ~ N(0, I_M) and independent e_n ~ N(0, d_n), d_n = Λ_nn. A Gaussian
// site N(f_n; μ̃_n, 1/τ̃_n) seen through e_n is a site on u_nᵀw of
// precision t_n = τ̃_n/(1 + d_n τ̃_n), so the posterior of w has precision
// P = I + Uᵀ diag(t) U and mean β = P⁻¹ Uᵀ(g ∘ ν̃), g_n = 1/(1 + d_n τ̃_n),
// ν̃ = τ̃ μ̃. By Woodbury, the posterior of f is
//
//	Σ = diag(d ∘ g) + diag(g) U P⁻¹ Uᵀ diag(g),  μ = d ∘ g ∘ ν̃ + g ∘ (U β),
//
// so a parallel EP sweep over all N points costs one DSYRK for P and one
// triangular solve with N right-hand sides for diag(Σ): O(N M²), memory
// O(N M). A test point x* gets mean u*ᵀβ and variance
// k** − |u*|² + |L_P⁻¹ u*|² (FITC's predictive, Λ included).

// FITC is the EP posterior of a GP classifier under the FITC prior with
// inducing inputs Xm (InferFITC). It is safe for concurrent use once built.
type FITC struct {
	Kernel kernel.Kernel
	Xm     *mat.Dense // inducing inputs (not copied; must not be modified)
	Sites  Sites      // one site per training point
	Mean   []float64  // posterior means of the training latents
	Var    []float64  // posterior variances of the training latents
	Sweeps int
	Flip   float64 // the likelihood's label-flip probability (Options.Flip)

	m    int
	lm   []float64 // Cholesky factor of K_MM (jitter included), M×M lower
	lp   []float64 // Cholesky factor of P, M×M lower
	beta []float64 // posterior mean of w
}

// fitcBlock is the number of training rows whose L_P⁻¹u_n one solve takes.
const fitcBlock = 4096

// InferFITC runs parallel EP (Options.Damping; Schedule is ignored) for
// GP classification of x, y (±1) under the FITC prior of kernel k with
// inducing inputs xm (M×d; for example an active set). K_MM carries k's
// jitter; the cross-covariances are noise-free, so every d_n is at least
// the jitter. The run stops when no site's precision or natural mean
// changes by more than SiteTol (0: 1e-4) relative to 1 + its size, after
// at least MinSweeps sweeps; after MaxSweeps it returns the last posterior
// with an error. It returns an error, too, for a K_MM or P that is not
// positive definite and for a cancelled ctx (checked before every sweep).
func InferFITC(ctx context.Context, k kernel.Kernel, x *mat.Dense, y []float64, xm *mat.Dense, o *Options) (*FITC, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	n, d := x.Dims()
	m, dm := xm.Dims()
	if dm != d || len(y) != n {
		panic(fmt.Sprintf("ep: InferFITC: x %d×%d, y %d, inducing inputs %d×%d", n, d, len(y), m, dm))
	}
	var flip float64
	if o != nil {
		flip = o.Flip
	}
	f := &FITC{Kernel: k, Xm: xm, Flip: flip, m: m,
		Sites: Sites{Tau: make([]float64, n), Nu: make([]float64, n)},
		Mean:  make([]float64, n), Var: make([]float64, n)}
	if m == 0 {
		return nil, errors.New("ep: InferFITC needs at least one inducing input")
	}

	// K_MM = L Lᵀ, U = K_NM L⁻ᵀ, d = diag(K_NN) + jitter − |u_n|².
	kmm := mat.NewDense(m, m, nil)
	k.TrainTo(kmm, xm)
	f.lm = kmm.RawMatrix().Data
	if !la.Cholesky(kmm.RawMatrix()) {
		return nil, errors.New("ep: InferFITC: K_MM of the inducing inputs is not positive definite")
	}
	u := mat.NewDense(n, m, nil)
	k.CrossTo(u, x, xm)
	la.SolveLowerTransRightTo(u.RawMatrix(), kmm.RawMatrix(), u.RawMatrix())
	dg := make([]float64, n)
	k.DiagTo(dg, x)
	jit := k.DiagJitter()
	for i := range dg {
		r := u.RawRowView(i)
		dg[i] += jit - blas64.Dot(vec(r), vec(r))
		// Exact arithmetic gives d_n >= jitter; rounding can take a
		// point that is (nearly) an inducing input below it.
		dg[i] = math.Max(dg[i], jit)
	}

	tol := 1e-4
	if o != nil && o.SiteTol > 0 {
		tol = o.SiteTol
	}
	damp := o.damping()
	p := mat.NewDense(m, m, nil)
	z := mat.NewDense(min(n, fitcBlock), m, nil)
	ws := make([]float64, n)
	g := make([]float64, n)
	f.beta = make([]float64, m)
	f.refresh(u, dg, p, z, ws, g)
	for sweep := 1; ; sweep++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		change := 0.0
		for i := range n {
			tc := 1/f.Var[i] - f.Sites.Tau[i]
			nc := f.Mean[i]/f.Var[i] - f.Sites.Nu[i]
			if !(tc > 0) {
				continue // keep the site: no proper cavity (rounding)
			}
			tt, tn := matchSite(y[i], nc/tc, 1/tc, flip)
			tt = (1-damp)*f.Sites.Tau[i] + damp*tt
			tn = (1-damp)*f.Sites.Nu[i] + damp*tn
			change = math.Max(change, math.Abs(tt-f.Sites.Tau[i])/(1+f.Sites.Tau[i]))
			change = math.Max(change, math.Abs(tn-f.Sites.Nu[i])/(1+math.Abs(f.Sites.Nu[i])))
			f.Sites.Tau[i], f.Sites.Nu[i] = tt, tn
		}
		if !f.refresh(u, dg, p, z, ws, g) {
			return nil, fmt.Errorf("ep: InferFITC: P = I + UᵀTU not positive definite in sweep %d", sweep)
		}
		f.Sweeps = sweep
		if sweep >= o.minSweeps() && change <= tol {
			return f, nil
		}
		if sweep >= o.maxSweeps() {
			return f, fmt.Errorf("ep: InferFITC not converged after %d sweeps (largest relative site change %.3g)", sweep, change)
		}
	}
}

// refresh recomputes P, its factor, β and the posterior marginals from the
// sites (the formulas at the top of this file). ws and g have length N, z
// is a row block buffer. It returns false if P is not positive definite.
func (f *FITC) refresh(u *mat.Dense, dg []float64, p, z *mat.Dense, ws, g []float64) bool {
	n, m := u.Dims()
	// W = diag(√t) U in z's blocks is what P needs; forming all of W would
	// double the memory, so P accumulates block by block.
	pr := p.RawMatrix()
	for i := range m {
		row := pr.Data[i*pr.Stride : i*pr.Stride+m]
		clear(row)
		row[i] = 1
	}
	for i := range n {
		g[i] = 1 / (1 + dg[i]*f.Sites.Tau[i])
		ws[i] = g[i] * f.Sites.Nu[i]
	}
	zr := z.RawMatrix()
	for lo := 0; lo < n; lo += zr.Rows {
		hi := min(n, lo+zr.Rows)
		blk := blas64.General{Rows: hi - lo, Cols: m, Stride: zr.Stride, Data: zr.Data}
		for i := lo; i < hi; i++ {
			s := math.Sqrt(f.Sites.Tau[i] * g[i])
			src := u.RawRowView(i)
			dst := blk.Data[(i-lo)*blk.Stride : (i-lo)*blk.Stride+m]
			for j, v := range src {
				dst[j] = s * v
			}
		}
		blas64.Syrk(blas.Trans, 1, blk, 1, blas64.Symmetric{Uplo: blas.Lower, N: m, Stride: pr.Stride, Data: pr.Data})
	}
	la.SymmetrizeLower(pr)
	if !la.Cholesky(pr) {
		return false
	}
	f.lp = pr.Data
	// β = P⁻¹ Uᵀ (g ∘ ν̃).
	bv := blas64.General{Rows: m, Cols: 1, Stride: 1, Data: f.beta}
	blas64.Gemv(blas.Trans, 1, u.RawMatrix(), vec(ws), 0, vec(f.beta))
	la.CholSolveTo(bv, pr, bv)
	// μ = d∘g∘ν̃ + g∘(Uβ), Σ_nn = d_n g_n + g_n² |L_P⁻¹ u_n|².
	blas64.Gemv(blas.NoTrans, 1, u.RawMatrix(), vec(f.beta), 0, vec(f.Mean))
	for lo := 0; lo < n; lo += zr.Rows {
		hi := min(n, lo+zr.Rows)
		blk := blas64.General{Rows: hi - lo, Cols: m, Stride: zr.Stride, Data: zr.Data}
		src := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: u.RawMatrix().Data[lo*m:]}
		la.SolveLowerTransRightTo(blk, pr, src)
		for i := lo; i < hi; i++ {
			r := blk.Data[(i-lo)*blk.Stride : (i-lo)*blk.Stride+m]
			f.Var[i] = dg[i]*g[i] + g[i]*g[i]*blas64.Dot(vec(r), vec(r))
			f.Mean[i] = dg[i]*g[i]*f.Sites.Nu[i] + g[i]*f.Mean[i]
		}
	}
	return true
}

// CavityTo sets mean and variance (length N) to the cavity (leave-one-out)
// distributions of the training latents: the posterior with the point's
// own site divided out (paper eq. 3 for all N points). A cavity without
// positive precision (rounding) gets NaN.
func (f *FITC) CavityTo(mean, variance []float64) {
	for i := range f.Mean {
		tc := 1/f.Var[i] - f.Sites.Tau[i]
		if !(tc > 0) {
			mean[i], variance[i] = math.NaN(), math.NaN()
			continue
		}
		variance[i] = 1 / tc
		mean[i] = (f.Mean[i]/f.Var[i] - f.Sites.Nu[i]) / tc
	}
}

// PredictTo sets the latent predictive mean and variance and, if prob is
// not nil, the probability Φ(m/√(1+v)) of y = +1 at the rows of xs.
func (f *FITC) PredictTo(mean, variance, prob []float64, xs *mat.Dense) {
	ns, _ := xs.Dims()
	m := f.m
	lm := blas64.General{Rows: m, Cols: m, Stride: m, Data: f.lm}
	lp := blas64.General{Rows: m, Cols: m, Stride: m, Data: f.lp}
	kss := make([]float64, ns)
	f.Kernel.DiagTo(kss, xs)
	for lo := 0; lo < ns; lo += fitcBlock {
		hi := min(ns, lo+fitcBlock)
		us := mat.NewDense(hi-lo, m, nil)
		f.Kernel.CrossTo(us, xs.Slice(lo, hi, 0, xs.RawMatrix().Cols).(*mat.Dense), f.Xm)
		la.SolveLowerTransRightTo(us.RawMatrix(), lm, us.RawMatrix())
		zs := mat.NewDense(hi-lo, m, nil)
		la.SolveLowerTransRightTo(zs.RawMatrix(), lp, us.RawMatrix())
		blas64.Gemv(blas.NoTrans, 1, us.RawMatrix(), vec(f.beta), 0, vec(mean[lo:hi]))
		for i := lo; i < hi; i++ {
			u, z := us.RawRowView(i-lo), zs.RawRowView(i-lo)
			variance[i] = math.Max(kss[i]-blas64.Dot(vec(u), vec(u)), 0) + blas64.Dot(vec(z), vec(z))
			if prob != nil {
				prob[i] = Phi(mean[i] / math.Sqrt(1+variance[i]))
			}
		}
	}
}
