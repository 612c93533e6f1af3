package ep

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
)

// Schedule selects the order of the EP site updates.
type Schedule int

const (
	// Parallel updates every site from the current posterior marginals,
	// damped, then refreshes the posterior with one Cholesky factorisation
	// of B and one triangular solve with n right-hand sides (BLAS-3).
	// It is the default: see doc.go for the measurements.
	Parallel Schedule = iota
	// Sequential visits the sites one at a time in a random order and
	// makes a rank-one update of Σ after each (GPML's infEP); the
	// posterior is recomputed from a fresh Cholesky factor after every
	// sweep.
	Sequential
)

func (s Schedule) String() string {
	switch s {
	case Parallel:
		return "parallel"
	case Sequential:
		return "sequential"
	}
	return fmt.Sprintf("Schedule(%d)", int(s))
}

// Options control the EP iteration. The zero value gives the defaults.
type Options struct {
	Schedule  Schedule
	Tol       float64 // stop when |Δ log Z_EP| <= Tol between sweeps (parallel: <= Tol/ParallelTolFactor); 0 means 1e-4
	SiteTol   float64 // if > 0 also require max relative site change <= SiteTol
	MinSweeps int     // 0 means 2
	MaxSweeps int     // 0 means 100; exceeding it returns *NotConvergedError
	Damping   float64 // parallel schedule step in (0,1]; 0 means DefaultDamping
	Seed      uint64  // site visiting order of the sequential schedule
	// Flip is the label-flip probability ε of the robust likelihood
	// p(y|f) = ε + (1-2ε) Φ(y f) (Kuss & Rasmussen 2005; Hernández-Lobato
	// et al. 2011), in [0, ½). A point far on the wrong side of the latent
	// then has a likelihood bounded below by ε, so its site stays weak
	// instead of pulling the latent. 0 is the probit likelihood, computed
	// by exactly the probit code (results bit-identical to Flip unset).
	// Predictive probabilities (PredictTo, CavityProbTo) stay Φ(m/√(1+v)):
	// under the flip model that is the probability of the true, unflipped
	// label.
	Flip float64
	// KeepWarm makes a run start from its warm sites whenever they give
	// a positive definite posterior. Without it (as GPML's infEP does)
	// warm sites are used only if their log Z_EP exceeds that of zero
	// sites, n·log ½ for a zero prior mean: that rejects even the sites of
	// a converged run on the same points where the fixed point's log Z_EP
	// is below it, as on active sets of hard, noisy points (PASS-GP's
	// budget on IJCNN: every such run then took 7 sweeps from zero sites
	// instead of 4 from its warm ones).
	KeepWarm bool
}

// DefaultDamping is the step of the parallel schedule when Options.Damping
// is zero.
const DefaultDamping = 0.9

// ParallelTolFactor divides Options.Tol for the parallel schedule (see
// Options.Tol).
const ParallelTolFactor = 10

// Defaults of Options.
const (
	DefaultTol       = 1e-4
	DefaultMinSweeps = 2
	DefaultMaxSweeps = 100
)

func (o *Options) tol() float64 {
	if o == nil || o.Tol == 0 {
		return DefaultTol
	}
	return o.Tol
}

func (o *Options) minSweeps() int {
	if o == nil || o.MinSweeps == 0 {
		return DefaultMinSweeps
	}
	return o.MinSweeps
}

func (o *Options) maxSweeps() int {
	if o == nil || o.MaxSweeps == 0 {
		return DefaultMaxSweeps
	}
	return o.MaxSweeps
}

func (o *Options) damping() float64 {
	if o == nil || o.Damping == 0 {
		return DefaultDamping
	}
	return o.Damping
}

// Validate reports an error for options that no EP run can use: an
// unknown Schedule, Damping outside (0, 1], a negative or non-finite Tol
// or SiteTol, negative MinSweeps or MaxSweeps, or MinSweeps > MaxSweeps
// (both set).
// A nil *Options is valid (the defaults).
func (o *Options) Validate() error {
	if o == nil {
		return nil
	}
	switch {
	case o.Schedule != Parallel && o.Schedule != Sequential:
		return fmt.Errorf("ep: unknown schedule %d (want Parallel or Sequential)", int(o.Schedule))
	case o.Damping != 0 && !(o.Damping > 0 && o.Damping <= 1):
		return fmt.Errorf("ep: Damping must be in (0,1], got %v", o.Damping)
	case !(o.Tol >= 0) || math.IsInf(o.Tol, 0):
		return fmt.Errorf("ep: Tol must be >= 0 and finite, got %v", o.Tol)
	case !(o.SiteTol >= 0) || math.IsInf(o.SiteTol, 0):
		return fmt.Errorf("ep: SiteTol must be >= 0 and finite, got %v", o.SiteTol)
	case o.MinSweeps < 0 || o.MaxSweeps < 0:
		return fmt.Errorf("ep: MinSweeps and MaxSweeps must be >= 0, got %d and %d", o.MinSweeps, o.MaxSweeps)
	case !(o.Flip >= 0 && o.Flip < 0.5):
		return fmt.Errorf("ep: Flip must be in [0, 0.5), got %v", o.Flip)
	case o.MinSweeps > 0 && o.MaxSweeps > 0 && o.MinSweeps > o.MaxSweeps:
		return fmt.Errorf("ep: MinSweeps %d exceeds MaxSweeps %d", o.MinSweeps, o.MaxSweeps)
	}
	return nil
}

// Sites holds the EP site parameters: site n is
// exp(Nu[n] f_n - Tau[n] f_n²/2), Tau[n] >= 0 the site precision and Nu[n]
// its natural (precision-scaled) mean.
type Sites struct{ Tau, Nu []float64 }

// Clone returns a deep copy of s.
func (s Sites) Clone() Sites {
	return Sites{Tau: append([]float64(nil), s.Tau...), Nu: append([]float64(nil), s.Nu...)}
}

// Posterior is the EP approximation q(f) = N(μ, Σ), Σ = (K⁻¹ + S)⁻¹,
// S = diag(Sites.Tau), of the latent values at the training inputs.
type Posterior struct {
	Kernel kernel.Kernel
	X      *mat.Dense // inputs (not copied; caller must not modify)
	Y      []float64  // labels ±1
	Sites  Sites
	Mean   []float64 // posterior means μ of the training latents
	Var    []float64 // posterior variances diag(Σ)
	Alpha  []float64 // representer weights b: μ = K b + m, m* = k*ᵀ b
	LogZ   float64   // log Z_EP
	Sweeps int       // EP sweeps run
	// Flip is the likelihood's label-flip probability ε (Options.Flip) of
	// the EP run; posteriors built from fixed sites (FromSites) have 0, so
	// their LogZ uses the probit likelihood.
	Flip float64

	n int
	// k is the n×n training covariance (jitter included), row-major,
	// full. Only the EP sweeps use it: it is released (nil) once Infer,
	// InferCov, FromSites or FromSitesCov return, because a trained
	// posterior keeps |A|² floats in l already and the classifiers of a
	// large multi-class problem must not keep two such matrices each.
	k     []float64
	l     []float64 // lower Cholesky factor of B = I + S^½ K S^½ (upper part unused)
	sw    []float64 // S^½
	mean0 []float64 // prior mean (nil = zero)
	// keepInv asks run to hand the last refresh's W = L⁻¹ to inv, where
	// the next GradientTo takes it (Optimize's evaluations: the gradient
	// then costs one n³/3 product instead of two). Only the goroutine
	// that ran EP sees inv set: GradientTo takes it before the posterior
	// is shared.
	keepInv bool
	inv     *[]float64
}

// N returns the number of training points.
func (p *Posterior) N() int { return p.n }

// NotConvergedError reports that EP did not meet its stopping rule within
// Options.MaxSweeps sweeps. Post is the posterior after the last sweep
// (consistent with its sites, usable but not converged).
type NotConvergedError struct {
	Sweeps     int
	LastChange float64 // |Δ log Z_EP| of the last sweep
	Post       *Posterior
}

func (e *NotConvergedError) Error() string {
	return fmt.Sprintf("ep: not converged after %d sweeps (last |Δ log Z| = %.3g)", e.Sweeps, e.LastChange)
}

// Infer runs EP for GP classification with kernel k on x, y (±1). warm may
// be nil (all sites zero) or previous sites (len n; e.g. kept sites plus
// zeros for new points). As GPML's infEP does, warm sites are used only if
// they give a larger log Z_EP than zero sites.
func Infer(k kernel.Kernel, x *mat.Dense, y []float64, warm *Sites, o *Options) (*Posterior, error) {
	return InferContext(context.Background(), k, x, y, warm, o)
}

// InferContext is Infer that stops when ctx is done: ctx is checked before
// every sweep, and its error is returned (wrapped in nothing) when it ends
// the run.
func InferContext(ctx context.Context, k kernel.Kernel, x *mat.Dense, y []float64, warm *Sites, o *Options) (*Posterior, error) {
	return inferContext(ctx, k, x, y, warm, o, false)
}

// inferContext is InferContext; with keepInv the posterior keeps its last
// refresh's L⁻¹ for the gradient that follows (Optimize's evaluations;
// Posterior.keepInv).
func inferContext(ctx context.Context, k kernel.Kernel, x *mat.Dense, y []float64, warm *Sites, o *Options, keepInv bool) (*Posterior, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := newKernelPosterior(k, x, y)
	if err != nil {
		return nil, err
	}
	p.keepInv = keepInv
	return p.run(ctx, warm, o)
}

// dropInv returns a kept L⁻¹ to the pool unused.
func (p *Posterior) dropInv() {
	if p.inv != nil {
		la.PutScratch(p.inv)
		p.inv = nil
	}
}

// release hands p's factor (and a kept inverse) back to the pool: for a
// posterior that nothing will use again, such as a θ search's discarded
// evaluations. p must not be used afterwards.
func (p *Posterior) release() {
	p.dropInv()
	if p.l != nil {
		l := p.l
		la.PutScratch(&l)
		p.l = nil
	}
}

// InferCov runs EP with a given prior covariance K (n×n, jitter included;
// it is copied) and prior mean (nil = zero); used by Z_ACC. The returned
// Posterior has Kernel == nil, X == nil.
func InferCov(K *mat.Dense, mean, y []float64, warm *Sites, o *Options) (*Posterior, error) {
	return InferCovContext(context.Background(), K, mean, y, warm, o)
}

// InferCovContext is InferCov that stops when ctx is done, as
// InferContext does.
func InferCovContext(ctx context.Context, K *mat.Dense, mean, y []float64, warm *Sites, o *Options) (*Posterior, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := len(y)
	if r, c := K.Dims(); r != n || c != n {
		panic("ep: InferCov: K must be n×n with n = len(y)")
	}
	if mean != nil && len(mean) != n {
		panic("ep: InferCov: len(mean) != len(y)")
	}
	p, err := newPosterior(n, y, mean)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		mat.NewDense(n, n, p.k).Copy(K)
	}
	return p.run(ctx, warm, o)
}

// FromSites builds the posterior for fixed sites without iterating (model
// loading, IVM checks). Sites are copied.
func FromSites(k kernel.Kernel, x *mat.Dense, y []float64, s Sites) (*Posterior, error) {
	p, err := newKernelPosterior(k, x, y)
	if err != nil {
		return nil, err
	}
	return p.fixSites(&s)
}

// FromSitesCov is FromSites for a given prior covariance and mean (as
// InferCov).
func FromSitesCov(K *mat.Dense, mean, y []float64, s Sites) (*Posterior, error) {
	n := len(y)
	if r, c := K.Dims(); r != n || c != n {
		panic("ep: FromSitesCov: K must be n×n with n = len(y)")
	}
	p, err := newPosterior(n, y, mean)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		mat.NewDense(n, n, p.k).Copy(K)
	}
	return p.fixSites(&s)
}

// fixSites builds p's posterior for the fixed sites s (copied) without
// iterating, once p's prior covariance is in place, and releases the
// prior covariance as Infer's posteriors do.
func (p *Posterior) fixSites(s *Sites) (*Posterior, error) {
	if err := p.setSites(s); err != nil {
		return nil, err
	}
	if err := p.checkK(); err != nil {
		return nil, err
	}
	ws := getWork(p.n)
	defer putWork(ws)
	if !p.refresh(ws, nil) {
		return nil, errNotPD
	}
	p.releaseK()
	return p, nil
}

// releaseK hands the prior covariance, which only the sweeps need, back
// to the pool newPosterior takes it from.
func (p *Posterior) releaseK() {
	if p.k != nil {
		k := p.k
		la.PutScratch(&k)
		p.k = nil
	}
}

var errNotPD = fmt.Errorf("ep: B = I + S^1/2 K S^1/2 is not positive definite (K not positive semi-definite: increase the jitter)")

// newKernelPosterior is newPosterior with the prior covariance k(x, x)
// (Kernel and X set).
func newKernelPosterior(k kernel.Kernel, x *mat.Dense, y []float64) (*Posterior, error) {
	n, _ := x.Dims()
	p, err := newPosterior(n, y, nil)
	if err != nil {
		return nil, err
	}
	p.Kernel, p.X = k, x
	if n > 0 {
		k.TrainTo(mat.NewDense(n, n, p.k), x)
	}
	return p, nil
}

func newPosterior(n int, y []float64, mean []float64) (*Posterior, error) {
	if len(y) != n {
		panic(fmt.Sprintf("ep: len(y) = %d, want %d", len(y), n))
	}
	for i, v := range y {
		if v != 1 && v != -1 {
			return nil, fmt.Errorf("ep: label y[%d] = %v, want -1 or +1", i, v)
		}
	}
	p := &Posterior{
		Y:     y,
		Sites: Sites{Tau: make([]float64, n), Nu: make([]float64, n)},
		Mean:  make([]float64, n),
		Var:   make([]float64, n),
		Alpha: make([]float64, n),
		n:     n,
		k:     zeroed(la.GetScratch(n * n)), // released to the pool when the run ends (releaseK)
		l:     zeroed(la.GetScratch(n * n)), // pooled: a θ search's discarded posteriors hand it back (release)
		sw:    make([]float64, n),
	}
	if mean != nil {
		p.mean0 = append([]float64(nil), mean...)
	}
	return p, nil
}

func (p *Posterior) setSites(s *Sites) error {
	if len(s.Tau) != p.n || len(s.Nu) != p.n {
		panic(fmt.Sprintf("ep: sites have length %d/%d, want %d", len(s.Tau), len(s.Nu), p.n))
	}
	for i := range s.Tau {
		if !(s.Tau[i] >= 0) || math.IsInf(s.Tau[i], 0) || math.IsNaN(s.Nu[i]) || math.IsInf(s.Nu[i], 0) {
			return fmt.Errorf("ep: site %d has tau = %v, nu = %v (want tau >= 0, both finite)", i, s.Tau[i], s.Nu[i])
		}
	}
	copy(p.Sites.Tau, s.Tau)
	copy(p.Sites.Nu, s.Nu)
	return nil
}

func (p *Posterior) checkK() error {
	for _, v := range p.k {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("ep: covariance matrix has a non-finite entry %v", v)
		}
	}
	for i := 0; i < p.n; i++ {
		if !(p.k[i*p.n+i] > 0) {
			return fmt.Errorf("ep: covariance matrix has a non-positive diagonal entry K[%d,%d] = %v", i, i, p.k[i*p.n+i])
		}
	}
	if p.mean0 != nil {
		for i, v := range p.mean0 {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("ep: prior mean[%d] = %v is not finite", i, v)
			}
		}
	}
	return nil
}
