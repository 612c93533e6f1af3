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
// triangular solve with N right-hand sides for diag(Σ): O(N M²). U takes
// N·M floats; above fitcStoreBytes it is not stored but recomputed in
// blocks of rows on every sweep (K_NM block and a solve with L: about
// twice the flops), so memory stays O(M² + block·M + N). A test point x*
// gets mean u*ᵀβ and variance k** − |u*|² + |L_P⁻¹ u*|² (FITC's
// predictive, the test point's own Λ included).

// FITC is the EP posterior of a GP classifier under the FITC prior with
// inducing inputs Xm (InferFITC). Its methods are safe for concurrent use.
// A FITC restored from its factors (RestoreFITC) predicts but has no
// training sites or marginals.
type FITC struct {
	Kernel kernel.Kernel
	Xm     *mat.Dense // inducing inputs (not copied; must not be modified)
	Sites  Sites      // one site per training point
	Mean   []float64  // posterior means of the training latents
	Var    []float64  // posterior variances of the training latents
	Sweeps int
	// Damping is the step of the parallel updates the run ended with:
	// Options.Damping, or a half or a quarter of it where the sites still
	// changed after MaxSweeps sweeps (InferFITC).
	Damping float64
	// LogZ is log Z_EP of the FITC model (the EP approximation of its
	// marginal likelihood; 0 for a restored predictor).
	LogZ float64
	// Beta is the posterior mean of w (length M) and FactorP the lower
	// Cholesky factor of its precision P (M×M row-major, upper triangle
	// zero): with the kernel and Xm, all that prediction needs.
	Beta, FactorP []float64

	m  int
	lm []float64 // Cholesky factor of K_MM (jitter included), M×M lower
}

// fitcBlock is the number of training rows U is computed and used in (a
// variable so that tests can run several blocks on small problems).
var fitcBlock = 4096

// fitcStoreBytes bounds the N·M·8 bytes of a stored U (a variable so that
// tests can take the recomputing path on small problems).
var fitcStoreBytes = int64(1) << 30

// fitcU gives U's rows in blocks: slices of the stored matrix, or
// computed into buf when U is not stored.
type fitcU struct {
	k     kernel.Kernel
	x, xm *mat.Dense
	lm    blas64.General
	full  *mat.Dense // nil: recompute
	// serial computes blocks with la's serial kernels (no BLAS call).
	serial bool
}

// block returns rows [lo, hi) of U, computed into buf (at least
// (hi-lo)×M) unless U is stored.
func (u *fitcU) block(lo, hi int, buf []float64) blas64.General {
	m := u.lm.Rows
	if u.full != nil {
		return blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: u.full.RawMatrix().Data[lo*m : hi*m]}
	}
	return u.compute(lo, hi, buf)
}

func (u *fitcU) compute(lo, hi int, buf []float64) blas64.General {
	m := u.lm.Rows
	_, d := u.x.Dims()
	dst := mat.NewDense(hi-lo, m, buf[:(hi-lo)*m])
	g := dst.RawMatrix()
	if u.serial {
		kernel.SerialCrossTo(u.k, dst, u.x.Slice(lo, hi, 0, d).(*mat.Dense), u.xm)
		la.SerialSolveLowerTransRightTo(g, u.lm, g)
		return g
	}
	u.k.CrossTo(dst, u.x.Slice(lo, hi, 0, d).(*mat.Dense), u.xm)
	la.SolveLowerTransRightTo(g, u.lm, g)
	return g
}

// InferFITC runs parallel EP (Options.Damping; Schedule is ignored) for
// GP classification of x, y (±1) under the FITC prior of kernel k with
// inducing inputs xm (M×d; for example an active set), from the sites warm
// (length N; nil: all zero, the prior). K_MM carries k's
// jitter; the cross-covariances are noise-free, so every d_n is at least
// the jitter. The run stops when no site's precision or natural mean
// changes by more than SiteTol (0: 1e-4) relative to 1 + its size, after
// at least MinSweeps sweeps. A run whose sites still change after
// MaxSweeps sweeps goes on from where it is with half the damping step,
// for MaxSweeps more, and then once more with a quarter of it
// (fitcHalvings): parallel updates of sites whose latents are strongly
// coupled, such as near-duplicate inputs with different labels, can
// oscillate at a step that suits the rest (USPS, digit 7 against the rest
// with 300 inducing inputs: a relative site change of 0.005 after 100
// sweeps at 0.9, converged within 100 more at 0.45). If that fails too,
// it returns the last posterior with a *FITCNotConvergedError. It returns an error, too,
// for a K_MM or P that is not positive definite and for a cancelled ctx
// (checked before every sweep and every block of rows).
func InferFITC(ctx context.Context, k kernel.Kernel, x *mat.Dense, y []float64, xm *mat.Dense, warm *Sites, o *Options) (*FITC, error) {
	return inferFITC(ctx, k, x, y, xm, warm, o, nil)
}

// InferFITCGrad is InferFITC that also returns the gradient of log Z_EP
// with respect to log θ: the fixed-point formula of ep/fitcgrad.go, from
// the same U blocks at O(N M²) more. It is exact at the EP fixed point
// while no site of the flip likelihood is clipped (as Posterior.GradientTo).
// A run that does not converge returns its last posterior, its gradient
// and the error, as InferFITC does.
func InferFITCGrad(ctx context.Context, k kernel.Kernel, x *mat.Dense, y []float64, xm *mat.Dense, warm *Sites, o *Options) (*FITC, []float64, error) {
	grad := make([]float64, len(k.Params()))
	f, err := inferFITC(ctx, k, x, y, xm, warm, o, grad)
	if f == nil {
		return nil, nil, err
	}
	return f, grad, err
}

// inferFITC is InferFITC, and sets grad (unless nil) to ∂ log Z_EP/∂log θ
// at the returned sites.
func inferFITC(ctx context.Context, k kernel.Kernel, x *mat.Dense, y []float64, xm *mat.Dense, warm *Sites, o *Options, grad []float64) (*FITC, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	n, m, err := checkFITCInputs(x, y, xm, warm)
	if err != nil {
		return nil, err
	}
	var flip float64
	if o != nil {
		flip = o.Flip
	}
	f := &FITC{Kernel: k, Xm: xm, m: m,
		Sites: Sites{Tau: make([]float64, n), Nu: make([]float64, n)},
		Mean:  make([]float64, n), Var: make([]float64, n)}
	w := &fitcWork{p: mat.NewDense(m, m, nil), // kept: FactorP
		ws: make([]float64, n), g: make([]float64, n), r: make([]float64, m)}
	defer w.release()
	run := &fitcRun{ctx: ctx, f: f, y: y, o: o, flip: flip, w: w}
	if err := run.prior(x); err != nil {
		return nil, err
	}
	run.tol = FITCSiteTol
	if o != nil && o.SiteTol > 0 {
		run.tol = o.SiteTol
	}
	w.z = w.scratch(min(n, fitcBlock) * m)
	f.Beta = make([]float64, m)
	if err := run.start(warm); err != nil {
		return nil, err
	}
	return run.iterate(grad)
}

// checkFITCInputs checks inferFITC's inputs and returns N and M: it
// panics for mismatched dimensions or warm sites (programmer errors) and
// returns an error for no inducing inputs.
func checkFITCInputs(x *mat.Dense, y []float64, xm *mat.Dense, warm *Sites) (int, int, error) {
	n, d := x.Dims()
	m, dm := xm.Dims()
	if dm != d || len(y) != n {
		panic(fmt.Sprintf("ep: InferFITC: x %d×%d, y %d, inducing inputs %d×%d", n, d, len(y), m, dm))
	}
	if m == 0 {
		return 0, 0, errors.New("ep: InferFITC needs at least one inducing input")
	}
	if warm != nil && (len(warm.Tau) != n || len(warm.Nu) != n) {
		panic(fmt.Sprintf("ep: InferFITC: warm sites of length %d and %d for %d points", len(warm.Tau), len(warm.Nu), n))
	}
	return n, m, nil
}

// fitcRun is the state of one inferFITC run: the posterior it fits, U's
// blocks, d, refresh's buffers and the stopping rule's tolerance.
type fitcRun struct {
	ctx       context.Context
	f         *FITC
	y         []float64
	o         *Options
	u         *fitcU
	dg        []float64 // d_n = Λ_nn
	w         *fitcWork
	flip, tol float64
}

// prior factors K_MM = L Lᵀ and sets U = K_NM L⁻ᵀ and d = diag(K_NN) +
// jitter − |u_n|², in one pass over U's blocks (which also fills U when
// it is stored, else the buffer of one block of U rows, r.w.buf).
func (r *fitcRun) prior(x *mat.Dense) error {
	f, k, w := r.f, r.f.Kernel, r.w
	n, _ := x.Dims()
	m := f.m
	var err error
	if f.lm, err = kmmFactor(k, f.Xm); err != nil {
		return fmt.Errorf("ep: InferFITC: %w", err)
	}
	u := &fitcU{k: k, x: x, xm: f.Xm, lm: f.lmGeneral()}
	if int64(n)*int64(m)*8 <= fitcStoreBytes {
		u.full = mat.NewDense(n, m, w.scratch(n*m))
	} else {
		w.buf = w.scratch(min(n, fitcBlock) * m)
	}
	dg := make([]float64, n)
	k.DiagTo(dg, x)
	jit := k.DiagJitter()
	for lo := 0; lo < n; lo += fitcBlock {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		hi := min(n, lo+fitcBlock)
		buf := w.buf
		if u.full != nil { // compute the block in place
			buf = u.full.RawMatrix().Data[lo*m : hi*m]
		}
		b := u.compute(lo, hi, buf)
		for i := lo; i < hi; i++ {
			row := b.Data[(i-lo)*b.Stride : (i-lo)*b.Stride+m]
			// Exact arithmetic gives d_n >= jitter; rounding can take a
			// point that is (nearly) an inducing input below it.
			dg[i] = math.Max(dg[i]+jit-blas64.Dot(vec(row), vec(row)), jit)
		}
	}
	r.u, r.dg = u, dg
	return nil
}

// start sets the sites to warm (nil: all zero, the prior) and refreshes
// the posterior; warm sites that make P indefinite are dropped for zero.
func (r *fitcRun) start(warm *Sites) error {
	f := r.f
	if warm != nil {
		copy(f.Sites.Tau, warm.Tau)
		copy(f.Sites.Nu, warm.Nu)
	}
	if err := f.refresh(r.ctx, r.u, r.dg, r.w); err != nil {
		if warm == nil {
			return err
		}
		// Sites from another θ can make P indefinite: start afresh.
		clear(f.Sites.Tau)
		clear(f.Sites.Nu)
		if err := f.refresh(r.ctx, r.u, r.dg, r.w); err != nil {
			return err
		}
	}
	return nil
}

// iterate runs parallel EP sweeps until the sites settle or the sweeps
// run out, halving the step up to fitcHalvings times (InferFITC), and
// then finishes the posterior.
func (r *fitcRun) iterate(grad []float64) (*FITC, error) {
	f, o := r.f, r.o
	damp := o.damping()
	limit, halvings := o.maxSweeps(), 0
	for sweep := 1; ; sweep++ {
		if err := r.ctx.Err(); err != nil {
			return nil, err
		}
		change := r.sweep(damp)
		if err := f.refresh(r.ctx, r.u, r.dg, r.w); err != nil {
			return nil, fmt.Errorf("%w (sweep %d)", err, sweep)
		}
		f.Sweeps, f.Damping = sweep, damp
		// A smaller step moves the sites less: the change is judged on the
		// scale of the first step, so that halving it does not loosen SiteTol.
		change *= o.damping() / damp
		done := sweep >= o.minSweeps() && change <= r.tol
		if !done && sweep >= limit && halvings < fitcHalvings {
			damp /= 2
			halvings++
			limit += o.maxSweeps()
		}
		if done || sweep >= limit {
			return r.finish(grad, done, sweep, change)
		}
	}
}

// sweep updates every site in parallel from its cavity with step damp
// and returns the largest relative change of a site's precision or
// natural mean.
func (r *fitcRun) sweep(damp float64) float64 {
	f := r.f
	change := 0.0
	for i := range f.Sites.Tau {
		tc := 1/f.Var[i] - f.Sites.Tau[i]
		nc := f.Mean[i]/f.Var[i] - f.Sites.Nu[i]
		if !(tc > 0) {
			continue // keep the site: no proper cavity (rounding)
		}
		tt, tn := matchSite(r.y[i], nc/tc, 1/tc, r.flip)
		tt = (1-damp)*f.Sites.Tau[i] + damp*tt
		tn = (1-damp)*f.Sites.Nu[i] + damp*tn
		change = math.Max(change, math.Abs(tt-f.Sites.Tau[i])/(1+f.Sites.Tau[i]))
		change = math.Max(change, math.Abs(tn-f.Sites.Nu[i])/(1+math.Abs(f.Sites.Nu[i])))
		f.Sites.Tau[i], f.Sites.Nu[i] = tt, tn
	}
	return change
}

// finish sets log Z_EP and, unless grad is nil, its gradient at the last
// sites, and returns the posterior, with a *FITCNotConvergedError unless
// the sites settled (done).
func (r *fitcRun) finish(grad []float64, done bool, sweep int, change float64) (*FITC, error) {
	f := r.f
	f.LogZ = f.logZ(r.y, r.dg, r.w, r.flip)
	if grad != nil {
		if err := f.gradientTo(r.ctx, grad, r.u, r.dg, r.w); err != nil {
			return nil, err
		}
	}
	if done {
		return f, nil
	}
	return f, &FITCNotConvergedError{Sweeps: sweep, Change: change, FITC: f}
}

// FITCNotConvergedError is InferFITC's error where the sites still
// change after all its sweeps (MaxSweeps, and as many after each halving
// of the step). FITC is the last posterior, which InferFITC also returns:
// usable, as a dense EP run's last iterate is (NotConvergedError).
type FITCNotConvergedError struct {
	Sweeps int
	Change float64 // largest relative site change of the last sweep, on the first step's scale
	FITC   *FITC
}

func (e *FITCNotConvergedError) Error() string {
	return fmt.Sprintf("ep: InferFITC not converged after %d sweeps (largest relative site change %.3g)", e.Sweeps, e.Change)
}

// fitcHalvings is how often InferFITC halves its damping step when the
// sites still change after MaxSweeps sweeps.
const fitcHalvings = 2

// fitcWork holds refresh's buffers: P, a block of L_P⁻¹u_n rows, a block
// of U rows (when U is not stored) and two vectors of length N. Scratch
// that the posterior does not keep (U, the blocks, the gradient's
// matrices) comes from la's scratch pools and goes back when the run ends: a θ
// search runs InferFITC tens of times on the same sizes, and fresh
// N×M slices cost zeroing, page faults and collections each time.
type fitcWork struct {
	p      *mat.Dense
	z, buf []float64
	ws, g  []float64
	r      []float64 // Uᵀ(g∘ν̃), β's right-hand side
	pooled []*[]float64
}

// scratch returns a pooled slice of length size, not zeroed, that
// release hands back.
func (w *fitcWork) scratch(size int) []float64 {
	b := la.GetScratch(size)
	w.pooled = append(w.pooled, b)
	return *b
}

// release returns the scratch slices to the pool.
func (w *fitcWork) release() {
	for _, b := range w.pooled {
		la.PutScratch(b)
	}
	w.pooled = nil
}

// refresh recomputes P, its factor, β and the posterior marginals from the
// sites (the formulas at the top of this file).
func (f *FITC) refresh(ctx context.Context, u *fitcU, dg []float64, w *fitcWork) error {
	n := len(dg)
	m := f.m
	pr := w.p.RawMatrix()
	for i := range m {
		row := pr.Data[i*pr.Stride : i*pr.Stride+m]
		clear(row)
		row[i] = 1
	}
	for i := range n {
		w.g[i] = 1 / (1 + dg[i]*f.Sites.Tau[i])
		w.ws[i] = w.g[i] * f.Sites.Nu[i]
	}
	// P = I + Σ_blocks (diag(√t) U_b)ᵀ(diag(√t) U_b) and Uᵀ(g∘ν̃), one
	// pass over U.
	clear(f.Beta)
	for lo := 0; lo < n; lo += fitcBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(n, lo+fitcBlock)
		b := u.block(lo, hi, w.buf)
		blas64.Gemv(blas.Trans, 1, b, vec(w.ws[lo:hi]), 1, vec(f.Beta))
		z := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: w.z}
		for i := lo; i < hi; i++ {
			s := math.Sqrt(f.Sites.Tau[i] * w.g[i])
			src := b.Data[(i-lo)*b.Stride : (i-lo)*b.Stride+m]
			dst := z.Data[(i-lo)*m : (i-lo+1)*m]
			for j, v := range src {
				dst[j] = s * v
			}
		}
		blas64.Syrk(blas.Trans, 1, z, 1, blas64.Symmetric{Uplo: blas.Lower, N: m, Stride: pr.Stride, Data: pr.Data})
	}
	la.SymmetrizeLower(pr)
	if !la.Cholesky(pr) {
		return errors.New("ep: InferFITC: P = I + UᵀTU is not positive definite")
	}
	for i := range m {
		clear(pr.Data[i*pr.Stride+i+1 : i*pr.Stride+m])
	}
	f.FactorP = pr.Data
	copy(w.r, f.Beta)
	bv := blas64.General{Rows: m, Cols: 1, Stride: 1, Data: f.Beta}
	la.CholSolveTo(bv, pr, bv)
	// μ = d∘g∘ν̃ + g∘(Uβ), Σ_nn = d_n g_n + g_n² |L_P⁻¹ u_n|².
	for lo := 0; lo < n; lo += fitcBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(n, lo+fitcBlock)
		b := u.block(lo, hi, w.buf)
		blas64.Gemv(blas.NoTrans, 1, b, vec(f.Beta), 0, vec(f.Mean[lo:hi]))
		z := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: w.z}
		la.SolveLowerTransRightTo(z, pr, b)
		for i := lo; i < hi; i++ {
			r := z.Data[(i-lo)*m : (i-lo+1)*m]
			g := w.g[i]
			f.Var[i] = dg[i]*g + g*g*blas64.Dot(vec(r), vec(r))
			f.Mean[i] = dg[i]*g*f.Sites.Nu[i] + g*f.Mean[i]
		}
	}
	return nil
}

// logZ returns log Z_EP of the current sites and marginals: the
// expression of Posterior.logZ (GPML's infEP) with the FITC prior's
//
//	log|I + S^½ Σ₀ S^½| = Σ log(1 + τ̃_n d_n) + log|P|,
//	ν̃ᵀΣν̃ = Σ d_n g_n ν̃_n² + rᵀβ,  r = Uᵀ(g∘ν̃),
//
// both from the last refresh (matrix determinant lemma and the Woodbury
// form of Σ at the top of this file).
func (f *FITC) logZ(y, dg []float64, w *fitcWork, flip float64) float64 {
	m := f.m
	var s float64
	for i := range m {
		s += math.Log(f.FactorP[i*m+i])
	}
	pSp := blas64.Dot(vec(w.r), vec(f.Beta))
	tau, nu, v := f.Sites.Tau, f.Sites.Nu, f.Var
	for i := range y {
		s += math.Log1p(tau[i]*dg[i]) / 2
		pSp += dg[i] * w.g[i] * nu[i] * nu[i]
		tc := 1/v[i] - tau[i]
		nc := f.Mean[i]/v[i] - nu[i]
		mc, vc := nc/tc, 1/tc
		s -= logLik(y[i]*mc/math.Sqrt(1+vc), flip)
		s += v[i] * nu[i] * nu[i] / 2
		s -= nc * (tau[i]/tc*nc - 2*nu[i]) * v[i] / 2
		s -= math.Log1p(tau[i]/tc) / 2
	}
	s -= pSp / 2
	return -s
}

// RestoreFITC rebuilds a FITC predictor from its kernel, inducing inputs
// and the factors Beta and FactorP of a trained one (as a model file
// stores them): K_MM's factor is recomputed by the code InferFITC uses,
// so predictions are bit for bit those of the trained posterior. It
// returns an error if the lengths do not match or K_MM is not positive
// definite.
func RestoreFITC(k kernel.Kernel, xm *mat.Dense, beta, factorP []float64) (*FITC, error) {
	m, _ := xm.Dims()
	if m == 0 || len(beta) != m || len(factorP) != m*m {
		return nil, fmt.Errorf("ep: RestoreFITC: %d inducing inputs, β of length %d, factor of length %d", m, len(beta), len(factorP))
	}
	lm, err := kmmFactor(k, xm)
	if err != nil {
		return nil, fmt.Errorf("ep: RestoreFITC: %w", err)
	}
	return &FITC{Kernel: k, Xm: xm, Beta: beta, FactorP: factorP, m: m, lm: lm}, nil
}

// kmmFactor returns the lower Cholesky factor of K_MM (k's training
// covariance of the inducing inputs xm, jitter included), M×M row-major:
// the one code that InferFITC and RestoreFITC share, so that a restored
// predictor is bit for bit the trained one.
func kmmFactor(k kernel.Kernel, xm *mat.Dense) ([]float64, error) {
	m, _ := xm.Dims()
	kmm := mat.NewDense(m, m, nil)
	k.TrainTo(kmm, xm)
	if !la.Cholesky(kmm.RawMatrix()) {
		return nil, errors.New("K_MM of the inducing inputs is not positive definite")
	}
	return kmm.RawMatrix().Data, nil
}

// lmGeneral returns K_MM's factor as a matrix.
func (f *FITC) lmGeneral() blas64.General {
	return blas64.General{Rows: f.m, Cols: f.m, Stride: f.m, Data: f.lm}
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
	f.predictTo(mean, variance, prob, xs, false)
}

// predictTo is PredictTo; serial selects la's serial kernels.
func (f *FITC) predictTo(mean, variance, prob []float64, xs *mat.Dense, serial bool) {
	ns, _ := xs.Dims()
	m := f.m
	lp := blas64.General{Rows: m, Cols: m, Stride: m, Data: f.FactorP}
	kss := make([]float64, ns)
	f.Kernel.DiagTo(kss, xs)
	rows := min(ns, fitcBlock)
	us := make([]float64, rows*m)
	zs := make([]float64, rows*m)
	// u* = L⁻¹k*: the rows of U for the test points.
	ut := &fitcU{k: f.Kernel, x: xs, xm: f.Xm, lm: f.lmGeneral(), serial: serial}
	for lo := 0; lo < ns; lo += fitcBlock {
		hi := min(ns, lo+fitcBlock)
		u := ut.compute(lo, hi, us)
		z := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: zs[:(hi-lo)*m]}
		dot := func(x []float64) float64 { return blas64.Dot(vec(x), vec(x)) }
		if serial {
			la.SerialSolveLowerTransRightTo(z, lp, u)
			la.SerialMulVecTo(mean[lo:hi], u, f.Beta)
			dot = func(x []float64) float64 { return la.SerialDot(x, x) }
		} else {
			la.SolveLowerTransRightTo(z, lp, u)
			blas64.Gemv(blas.NoTrans, 1, u, vec(f.Beta), 0, vec(mean[lo:hi]))
		}
		for i := lo; i < hi; i++ {
			ur, zr := u.Data[(i-lo)*m:(i-lo+1)*m], z.Data[(i-lo)*m:(i-lo+1)*m]
			variance[i] = math.Max(kss[i]-dot(ur), 0) + dot(zr)
			if prob != nil {
				prob[i] = Phi(mean[i] / math.Sqrt(1+variance[i]))
			}
		}
	}
}

// FITCSiteTol is InferFITC's site tolerance where Options.SiteTol is 0.
const FITCSiteTol = 1e-4
