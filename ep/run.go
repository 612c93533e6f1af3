package ep

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
)

// Iteration is an EP iteration that the caller drives sweep by sweep
// (Infer runs one to convergence). It holds pooled workspaces until Close.
type Iteration struct {
	p     *Posterior
	w     *work
	sigma []float64 // Σ (lower triangle), sequential schedule only
	sched Schedule
	damp  float64 // current step of the parallel schedule
	prev  float64 // |Δ log Z| of the previous sweep
	rng   *rand.Rand
}

// NewIteration prepares EP for kernel k on x, y from warm (or zero) sites
// with the schedule and damping of o, without running a sweep.
func NewIteration(k kernel.Kernel, x *mat.Dense, y []float64, warm *Sites, o *Options) (*Iteration, error) {
	p, err := newKernelPosterior(k, x, y)
	if err != nil {
		return nil, err
	}
	return p.start(warm, o)
}

// Posterior returns the posterior after the last sweep (or the start).
func (it *Iteration) Posterior() *Posterior { return it.p }

// Close returns the workspaces to the pool and releases the n×n prior
// covariance, which only the sweeps need; the Posterior stays valid for
// prediction, cavities and the gradient.
func (it *Iteration) Close() {
	if it.w != nil {
		it.w.ctx, it.w.stop = nil, nil
		putWork(it.w)
		it.w, it.sigma = nil, nil
	}
	it.p.releaseK()
}

// Sweep runs one EP sweep and returns the change of log Z_EP. It panics
// after Close.
func (it *Iteration) Sweep() (float64, error) {
	p, w := it.p, it.w
	if w == nil {
		panic("ep: Sweep after Close")
	}
	old := p.LogZ
	copy(w.oldTau, p.Sites.Tau)
	copy(w.oldNu, p.Sites.Nu)
	var err error
	if it.sched == Sequential {
		err = p.sweepSequential(w, it.sigma, it.rng)
	} else {
		err = p.sweepParallel(w, it.damp)
	}
	if err != nil {
		return 0, err
	}
	p.Sweeps++
	if math.IsNaN(p.LogZ) {
		return 0, fmt.Errorf("ep: log Z_EP is NaN after sweep %d", p.Sweeps)
	}
	change := math.Abs(p.LogZ - old)
	if it.sched == Parallel && p.Sweeps > 2 && change > it.prev && change > oscillationTol*math.Max(1, math.Abs(p.LogZ)) {
		// Not contracting: parallel EP oscillates when the step is too
		// long (large signal variances); shorten it. Changes near
		// rounding level do not count.
		it.damp = math.Max(it.damp*dampShrink, minDamping)
	}
	it.prev = change
	return change, nil
}

// keepInverse hands the last refresh's W = L⁻¹ (the work's v) to the
// posterior when it asked for it (keepInv) and the refresh computed it,
// swapping a pooled buffer of the same size into the work in its place
// (so that the work's next run need not allocate one).
func (it *Iteration) keepInverse() {
	p, w := it.p, it.w
	if !p.keepInv || !w.inverse || p.n == 0 {
		return
	}
	b := la.GetScratch(len(w.v))
	*b, w.v = w.v, *b
	p.inv = b
	w.inverse = false
}

// Adaptive damping of the parallel schedule: the step shrinks by
// dampShrink after every sweep that changed log Z_EP more than the one
// before (and by more than oscillationTol), down to minDamping.
const (
	dampShrink     = 0.7
	minDamping     = 0.05
	oscillationTol = 1e-6 // relative to max(1, |log Z_EP|)
)

// start checks the prior, chooses the starting sites and computes the
// posterior there.
func (p *Posterior) start(warm *Sites, o *Options) (*Iteration, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if err := p.checkK(); err != nil {
		return nil, err
	}
	sched := Parallel
	if o != nil {
		sched = o.Schedule
	}
	if o != nil {
		p.Flip = o.Flip
	}
	it := &Iteration{p: p, sched: sched, damp: 1, prev: math.Inf(1), w: getWork(p.n)}
	if sched == Parallel {
		it.damp = o.damping()
	} else {
		it.sigma = it.w.sigmaBuf(p.n)
		seed := uint64(0)
		if o != nil {
			seed = o.Seed
		}
		it.rng = rand.New(rand.NewPCG(seed, 0x5eed5eed5eed5eed))
	}
	// Start: zero sites, or the warm sites if they give a larger log Z
	// (GPML infEP does the same) or KeepWarm is set. Zero sites cost
	// O(n²).
	p.refresh(it.w, it.sigma)
	if warm != nil {
		zero := p.LogZ
		if err := p.setSites(warm); err != nil {
			it.Close()
			return nil, err
		}
		if !p.refresh(it.w, it.sigma) || !(p.LogZ > zero || o != nil && o.KeepWarm) {
			clear(p.Sites.Tau)
			clear(p.Sites.Nu)
			p.refresh(it.w, it.sigma)
		}
	}
	return it, nil
}

// run iterates EP from warm (or zero) sites until the stopping rule of o
// holds (SPEC.md §2).
func (p *Posterior) run(ctx context.Context, warm *Sites, o *Options) (*Posterior, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	it, err := p.start(warm, o)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	// The sweeps stop inside their refresh (between the Cholesky factor
	// and panels of the triangular solve) once ctx is done.
	it.w.ctx = ctx
	tol, minS, maxS := o.tol(), o.minSweeps(), o.maxSweeps()
	if it.sched == Parallel {
		// Damped parallel steps move log Z_EP less per sweep than
		// sequential ones at the same distance from the fixed point: the
		// parallel schedule stops at Tol/ParallelTolFactor, which gives the
		// accuracy of the sequential schedule at Tol on the GPML fixtures
		// (README table (b)).
		tol /= ParallelTolFactor
	}
	siteTol := 0.0
	if o != nil {
		siteTol = o.SiteTol
	}
	for {
		// One sweep is the unit of cancellation: O(n³) at most.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		change, err := it.Sweep()
		if err != nil {
			return nil, err
		}
		done := p.Sweeps >= minS && change <= tol
		if done && siteTol > 0 {
			done = siteChange(p.Sites, it.w.oldTau, it.w.oldNu) <= siteTol
		}
		if done {
			it.keepInverse()
			return p, nil
		}
		if p.Sweeps >= maxS {
			it.keepInverse()
			return p, &NotConvergedError{Sweeps: p.Sweeps, LastChange: change, Post: p}
		}
	}
}

// siteChange returns max_n |Δ site_n| / max(1, |site_n|) over τ̃ and ν̃.
func siteChange(s Sites, oldTau, oldNu []float64) float64 {
	var m float64
	for i := range s.Tau {
		m = math.Max(m, math.Abs(s.Tau[i]-oldTau[i])/math.Max(1, math.Abs(s.Tau[i])))
		m = math.Max(m, math.Abs(s.Nu[i]-oldNu[i])/math.Max(1, math.Abs(s.Nu[i])))
	}
	return m
}

// sweepParallel updates every site from the current marginals with step
// damp (in natural parameters), then refreshes the posterior. If B loses
// positive definiteness (possible only through rounding when K is nearly
// singular) the step is halved, up to 10 times.
func (p *Posterior) sweepParallel(w *work, damp float64) error {
	tau, nu := p.Sites.Tau, p.Sites.Nu
	dTau, dNu := w.dTau, w.dNu
	for i := range tau {
		vi := p.Var[i]
		tc := 1/vi - tau[i]
		nc := p.Mean[i]/vi - nu[i]
		if !(tc > 0) || math.IsInf(tc, 0) {
			// No usable cavity (rounding with a huge site precision):
			// keep the site.
			dTau[i], dNu[i] = 0, 0
			continue
		}
		tt, tn := p.siteUpdate(p.Y[i], nc/tc, 1/tc)
		dTau[i], dNu[i] = tt-tau[i], tn-nu[i]
	}
	for try := 0; try < 10; try++ {
		for i := range tau {
			// A convex combination of non-negative precisions stays >= 0.
			tau[i] = math.Max(0, w.oldTau[i]+damp*dTau[i])
			nu[i] = w.oldNu[i] + damp*dNu[i]
		}
		if p.refresh(w, nil) {
			return nil
		}
		if err := w.cancelled(); err != nil {
			// Stopped inside refresh: the posterior is not consistent
			// with the sites any more; the run is abandoned.
			copy(tau, w.oldTau)
			copy(nu, w.oldNu)
			return err
		}
		damp /= 2
	}
	copy(tau, w.oldTau)
	copy(nu, w.oldNu)
	p.refresh(w, nil)
	return errNotPD
}

// seqBlock is the number of rank-one updates of Σ that the sequential
// schedule accumulates before applying them with DSYRK.
const seqBlock = 64

// sweepSequential visits the sites in a random order, as GPML's infEP
// does: each site is updated from the current marginal of its latent, and
// Σ and μ then change by a rank-one term, Σ ← Σ - c_i s_i s_iᵀ with s_i the
// i-th column of Σ (Rasmussen & Williams Alg. 3.5). After the sweep the
// posterior is recomputed from a fresh Cholesky factor.
//
// The rank-one updates are delayed (the result is the same up to
// rounding): within a block of seqBlock sites, Σ = Σ₀ - Σ_j c_j s_j s_jᵀ,
// so column i is Σ₀[:, i] minus a small matrix-vector product with the
// block's columns, and at the end of a block Σ₀ takes the block's update in
// two DSYRK calls (positive and negative c_j). This turns the sweep's n
// memory-bound DSYR calls into BLAS-3 work.
func (p *Posterior) sweepSequential(w *work, sigma []float64, rng *rand.Rand) error {
	n := p.n
	tau, nu, mu := p.Sites.Tau, p.Sites.Nu, p.Mean
	perm := w.perm
	for i := range perm {
		perm[i] = i
	}
	rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	kb := min(seqBlock, n)
	w.blockBufs(kb, n)
	ut, c, coef := w.ut, w.cb, w.coef // ut: the block's columns s_j as rows
	jb := 0
	for _, i := range perm {
		si := ut[jb*n : (jb+1)*n]
		// si = Σ₀[:, i] from the lower triangle ...
		copy(si[:i+1], sigma[i*n:i*n+i+1])
		for j := i + 1; j < n; j++ {
			si[j] = sigma[j*n+i]
		}
		// ... minus the block's pending updates.
		if jb > 0 {
			for j := 0; j < jb; j++ {
				coef[j] = -c[j] * ut[j*n+i]
			}
			blas64.Gemv(blas.Trans, 1, blas64.General{Rows: jb, Cols: n, Stride: n, Data: ut},
				blas64.Vector{N: jb, Inc: 1, Data: coef}, 1, vec(si))
		}
		sii := si[i]
		tc := 1/sii - tau[i]
		nc := mu[i]/sii - nu[i]
		if !(tc > 0) || math.IsInf(tc, 0) {
			continue
		}
		tt, tn := p.siteUpdate(p.Y[i], nc/tc, 1/tc)
		dtt, dtn := tt-tau[i], tn-nu[i]
		tau[i], nu[i] = tt, tn
		ci := dtt / (1 + dtt*sii)
		blas64.Axpy(-(ci*(mu[i]+sii*dtn) - dtn), vec(si), vec(mu))
		if ci == 0 {
			continue
		}
		c[jb] = ci
		jb++
		if jb == kb {
			p.flushBlock(w, sigma, jb)
			jb = 0
		}
	}
	// The pending updates of the last block need not be applied: the
	// refresh recomputes Σ.
	if !p.refresh(w, sigma) {
		copy(tau, w.oldTau)
		copy(nu, w.oldNu)
		if err := w.cancelled(); err != nil {
			return err // abandoned, as in sweepParallel
		}
		p.refresh(w, sigma)
		return errNotPD
	}
	return nil
}

// flushBlock applies Σ₀ ← Σ₀ - Σ_j c_j s_j s_jᵀ for the jb pending columns
// (rows of w.ut) to the lower triangle of sigma: DSYRK with the rows scaled
// by √|c_j|, once for c_j > 0 and once for c_j < 0.
func (p *Posterior) flushBlock(w *work, sigma []float64, jb int) {
	n := p.n
	pos, neg := 0, jb
	for j := 0; j < jb; j++ {
		r := w.ut[j*n : (j+1)*n]
		var dst []float64
		if w.cb[j] > 0 {
			dst = w.pb[pos*n : (pos+1)*n]
			pos++
		} else {
			neg--
			dst = w.pb[neg*n : (neg+1)*n]
		}
		s := math.Sqrt(math.Abs(w.cb[j]))
		for k, v := range r {
			dst[k] = s * v
		}
	}
	S := blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: sigma}
	if pos > 0 {
		blas64.Syrk(blas.Trans, -1, blas64.General{Rows: pos, Cols: n, Stride: n, Data: w.pb}, 1, S)
	}
	if neg < jb {
		blas64.Syrk(blas.Trans, 1, blas64.General{Rows: jb - neg, Cols: n, Stride: n, Data: w.pb[neg*n:]}, 1, S)
	}
}
