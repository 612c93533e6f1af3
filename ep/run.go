package ep

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// run iterates EP from warm (or zero) sites until the stopping rule of o
// holds (SPEC.md §2).
func (p *Posterior) run(warm *Sites, o *Options) (*Posterior, error) {
	if err := p.checkK(); err != nil {
		return nil, err
	}
	n := p.n
	sched := Parallel
	if o != nil {
		sched = o.Schedule
	}
	if sched != Parallel && sched != Sequential {
		panic(fmt.Sprintf("ep: unknown schedule %d", int(sched)))
	}
	damp := 1.0
	if sched == Parallel {
		damp = o.damping()
	}
	tol, minS, maxS := o.tol(), o.minSweeps(), o.maxSweeps()
	if sched == Parallel {
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
	w := getWork(n)
	defer putWork(w)
	var sigma []float64
	if sched == Sequential {
		sigma = w.sigmaBuf(n)
	}

	// Start: zero sites, or the warm sites if they give a larger log Z
	// (GPML infEP does the same).
	if !p.refresh(w, sigma) { // zero sites: B = I, always succeeds
		return nil, errNotPD
	}
	if warm != nil {
		zero := p.LogZ
		if err := p.setSites(warm); err != nil {
			return nil, err
		}
		if !p.refresh(w, sigma) || !(p.LogZ > zero) {
			clear(p.Sites.Tau)
			clear(p.Sites.Nu)
			if !p.refresh(w, sigma) {
				return nil, errNotPD
			}
		}
	}

	var rng *rand.Rand
	if sched == Sequential {
		seed := uint64(0)
		if o != nil {
			seed = o.Seed
		}
		rng = rand.New(rand.NewPCG(seed, 0x5eed5eed5eed5eed))
	}
	change := math.Inf(1)
	for sweep := 1; ; sweep++ {
		old := p.LogZ
		copy(w.oldTau, p.Sites.Tau)
		copy(w.oldNu, p.Sites.Nu)
		var err error
		if sched == Sequential {
			err = p.sweepSequential(w, sigma, rng)
		} else {
			err = p.sweepParallel(w, damp)
		}
		if err != nil {
			return nil, err
		}
		p.Sweeps = sweep
		change = math.Abs(p.LogZ - old)
		if math.IsNaN(p.LogZ) {
			return nil, fmt.Errorf("ep: log Z_EP is NaN after sweep %d", sweep)
		}
		done := sweep >= minS && change <= tol
		if done && siteTol > 0 {
			done = siteChange(p.Sites, w.oldTau, w.oldNu) <= siteTol
		}
		if done {
			return p, nil
		}
		if sweep >= maxS {
			return p, &NotConvergedError{Sweeps: sweep, LastChange: change, Post: p}
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
		_, tt, tn := moments(p.Y[i], nc/tc, 1/tc)
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
		damp /= 2
	}
	copy(tau, w.oldTau)
	copy(nu, w.oldNu)
	p.refresh(w, nil)
	return errNotPD
}

// sweepSequential visits the sites in a random order; after each site
// update Σ (lower triangle in sigma) and μ get a rank-one update (GPML
// infEP), and after the sweep the posterior is recomputed from scratch.
func (p *Posterior) sweepSequential(w *work, sigma []float64, rng *rand.Rand) error {
	n := p.n
	tau, nu, mu := p.Sites.Tau, p.Sites.Nu, p.Mean
	si := w.a
	perm := w.perm
	for i := range perm {
		perm[i] = i
	}
	rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	S := blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: sigma}
	for _, i := range perm {
		sii := sigma[i*n+i]
		tc := 1/sii - tau[i]
		nc := mu[i]/sii - nu[i]
		if !(tc > 0) || math.IsInf(tc, 0) {
			continue
		}
		_, tt, tn := moments(p.Y[i], nc/tc, 1/tc)
		dtt, dtn := tt-tau[i], tn-nu[i]
		tau[i], nu[i] = tt, tn
		// si = Σ[:, i] from the lower triangle.
		copy(si[:i+1], sigma[i*n:i*n+i+1])
		for j := i + 1; j < n; j++ {
			si[j] = sigma[j*n+i]
		}
		ci := dtt / (1 + dtt*sii)
		blas64.Syr(-ci, vec(si), S)
		blas64.Axpy(-(ci*(mu[i]+sii*dtn) - dtn), vec(si), vec(mu))
	}
	if !p.refresh(w, sigma) {
		copy(tau, w.oldTau)
		copy(nu, w.oldNu)
		p.refresh(w, sigma)
		return errNotPD
	}
	return nil
}
