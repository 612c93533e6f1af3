package ep

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// fitcPrior returns the FITC prior covariance Q + Λ of x with inducing
// inputs xm and the test cross-covariance Q(xs, x), computed densely from
// the definitions (K_MM with k's jitter, noise-free cross-covariances).
func fitcPrior(k kernel.Kernel, x, xm, xs *mat.Dense) (s0, qs *mat.Dense) {
	n, _ := x.Dims()
	m, _ := xm.Dims()
	ns, _ := xs.Dims()
	kmm := mat.NewDense(m, m, nil)
	k.TrainTo(kmm, xm)
	knm := mat.NewDense(n, m, nil)
	k.CrossTo(knm, x, xm)
	ksm := mat.NewDense(ns, m, nil)
	k.CrossTo(ksm, xs, xm)
	var a, b mat.Dense
	if err := a.Solve(kmm, knm.T()); err != nil { // K_MM⁻¹ K_MN
		panic(err)
	}
	s0 = mat.NewDense(n, n, nil)
	s0.Mul(knm, &a)
	diag := make([]float64, n)
	k.DiagTo(diag, x)
	for i := range n {
		s0.Set(i, i, diag[i]+k.DiagJitter())
	}
	b.Mul(ksm, &a)
	return s0, &b
}

// TestFITC checks InferFITC against dense EP (InferCov) on the FITC prior
// covariance built from its definition: the posterior marginals, the
// cavities and the predictive distribution at new points agree, for the
// probit and the label-flip likelihoods and for inducing inputs that are
// training points or not, and so does log Z_EP. With every training point inducing and a tiny
// jitter, FITC is the full GPC, so it matches Infer too.
func TestFITC(t *testing.T) {
	x, y := blobs(60, 3)
	xs, _ := blobs(7, 4)
	other, _ := blobs(9, 5)
	sub := mat.DenseCopyOf(x.Slice(0, 12, 0, 2))
	for _, c := range []struct {
		name string
		k    kernel.Kernel
		xm   *mat.Dense
		flip float64
	}{
		{"subset", kernel.SE{Var: 2, Len2: 0.8, Jitter: 1e-3}, sub, 0},
		{"other", kernel.SEBias{SE: kernel.SE{Var: 3, Len2: 1.5, Jitter: 1e-2}, Bias: 0.5}, other, 0},
		{"flip", kernel.SE{Var: 5, Len2: 0.5, Jitter: 1e-3}, sub, 0.05},
	} {
		o := &Options{SiteTol: 1e-10, MaxSweeps: 1000, Flip: c.flip}
		f, err := InferFITC(context.Background(), c.k, x, y, c.xm, nil, o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		s0, qs := fitcPrior(c.k, x, c.xm, xs)
		d, err := InferCov(s0, nil, y, nil, &Options{Tol: 1e-12, SiteTol: 1e-10, MaxSweeps: 1000, Flip: c.flip})
		if err != nil {
			t.Fatalf("%s: dense EP: %v", c.name, err)
		}
		const tol = 1e-6
		if math.Abs(f.LogZ-d.LogZ) > tol*(1+math.Abs(d.LogZ)) {
			t.Errorf("%s: log Z_EP: FITC %v, dense %v", c.name, f.LogZ, d.LogZ)
		}
		for i := range y {
			if math.Abs(f.Mean[i]-d.Mean[i]) > tol*(1+math.Abs(d.Mean[i])) || math.Abs(f.Var[i]-d.Var[i]) > tol*d.Var[i] {
				t.Fatalf("%s: marginal %d: FITC N(%v, %v), dense N(%v, %v)", c.name, i, f.Mean[i], f.Var[i], d.Mean[i], d.Var[i])
			}
		}
		n := len(y)
		fm, fv, dm, dv := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		f.CavityTo(fm, fv)
		d.CavityTo(dm, dv)
		for i := range y {
			if math.Abs(fm[i]-dm[i]) > tol*(1+math.Abs(dm[i])) || math.Abs(fv[i]-dv[i]) > tol*dv[i] {
				t.Fatalf("%s: cavity %d: FITC N(%v, %v), dense N(%v, %v)", c.name, i, fm[i], fv[i], dm[i], dv[i])
			}
		}
		ns, _ := xs.Dims()
		pm, pv, pp := make([]float64, ns), make([]float64, ns), make([]float64, ns)
		f.PredictTo(pm, pv, pp, xs)
		kss := make([]float64, ns)
		c.k.DiagTo(kss, xs)
		wm, wv, wp := make([]float64, ns), make([]float64, ns), make([]float64, ns)
		d.PredictCrossTo(wm, wv, wp, qs, kss)
		for i := range ns {
			if math.Abs(pm[i]-wm[i]) > tol*(1+math.Abs(wm[i])) || math.Abs(pv[i]-wv[i]) > tol*wv[i] || math.Abs(pp[i]-wp[i]) > tol {
				t.Fatalf("%s: test point %d: FITC N(%v, %v) p %v, dense N(%v, %v) p %v", c.name, i, pm[i], pv[i], pp[i], wm[i], wv[i], wp[i])
			}
		}
	}

	// Every training point inducing, jitter 1e-9: Q + Λ ≈ K.
	k := kernel.SE{Var: 2, Len2: 0.8, Jitter: 1e-9}
	f, err := InferFITC(context.Background(), k, x, y, x, nil, &Options{SiteTol: 1e-10, MaxSweeps: 1000})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Infer(k, x, y, nil, &Options{Tol: 1e-12, SiteTol: 1e-10, MaxSweeps: 1000})
	if err != nil {
		t.Fatal(err)
	}
	ns, _ := xs.Dims()
	pm, pv, wm, wv := make([]float64, ns), make([]float64, ns), make([]float64, ns), make([]float64, ns)
	f.PredictTo(pm, pv, nil, xs)
	p.PredictTo(wm, wv, nil, xs)
	for i := range ns {
		if math.Abs(pm[i]-wm[i]) > 1e-5*(1+math.Abs(wm[i])) || math.Abs(pv[i]-wv[i]) > 1e-5*(1+wv[i]) {
			t.Errorf("all inducing, test point %d: FITC N(%v, %v), full GPC N(%v, %v)", i, pm[i], pv[i], wm[i], wv[i])
		}
	}
}

// TestFITCStreamRestore checks that recomputing U's blocks on every sweep
// (large N·M) gives bit for bit the posterior of the stored U, that a
// predictor restored from Beta and FactorP predicts bit for bit as the
// trained one, that warm sites at the fixed point stay there, that bad factors are refused, and that a cancelled context
// stops the run.
func TestFITCStreamRestore(t *testing.T) {
	x, y := blobs(5000, 6) // more rows than one block
	xs, _ := blobs(50, 7)
	xm := mat.DenseCopyOf(x.Slice(0, 30, 0, 2))
	k := kernel.SE{Var: 2, Len2: 0.8, Jitter: 1e-3}
	stored, err := InferFITC(context.Background(), k, x, y, xm, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func(b int64) { fitcStoreBytes = b }(fitcStoreBytes)
	fitcStoreBytes = 0
	streamed, err := InferFITC(context.Background(), k, x, y, xm, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Sweeps < 3 || streamed.Sweeps != stored.Sweeps {
		t.Errorf("sweeps: stored %d, streamed %d", stored.Sweeps, streamed.Sweeps)
	}
	for i := range y {
		if stored.Mean[i] != streamed.Mean[i] || stored.Var[i] != streamed.Var[i] || stored.Sites.Tau[i] != streamed.Sites.Tau[i] {
			t.Fatalf("point %d: stored N(%v, %v), streamed N(%v, %v)", i, stored.Mean[i], stored.Var[i], streamed.Mean[i], streamed.Var[i])
		}
	}
	// Warm-started from its own fixed point, EP stops at its minimum of
	// sweeps, where it started.
	warm, err := InferFITC(context.Background(), k, x, y, xm, &stored.Sites, nil)
	if err != nil {
		t.Fatal(err)
	}
	if warm.Sweeps != DefaultMinSweeps || math.Abs(warm.LogZ-stored.LogZ) > 1e-6*math.Abs(stored.LogZ) {
		t.Errorf("warm start: %d sweeps, log Z %v (cold: %d, %v)", warm.Sweeps, warm.LogZ, stored.Sweeps, stored.LogZ)
	}
	r, err := RestoreFITC(k, xm, append([]float64(nil), stored.Beta...), append([]float64(nil), stored.FactorP...))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := xs.Dims()
	am, av, ap, bm, bv, bp := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	stored.PredictTo(am, av, ap, xs)
	r.PredictTo(bm, bv, bp, xs)
	for i := range n {
		if am[i] != bm[i] || av[i] != bv[i] || ap[i] != bp[i] {
			t.Fatalf("test point %d: trained N(%v, %v), restored N(%v, %v)", i, am[i], av[i], bm[i], bv[i])
		}
		if !(ap[i] > 0 && ap[i] < 1) {
			t.Fatalf("test point %d: probability %v", i, ap[i])
		}
	}
	if _, err := RestoreFITC(k, xm, stored.Beta[1:], stored.FactorP); err == nil {
		t.Error("short β accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := InferFITC(ctx, k, x, y, xm, nil, nil); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := InferFITC(context.Background(), k, x, y, xm, nil, &Options{MaxSweeps: 2, MinSweeps: 1}); err == nil {
		t.Error("2 sweeps reported as converged")
	}
}

// clusters returns n points around c centres in d dimensions, spread apart
// by spread around each (near-duplicates when it is small), labelled by
// the sign of their centre's first coordinate, each flipped with
// probability flip.
func clusters(n, c, d int, spread, flip float64, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	cen := mat.NewDense(c, d, nil)
	for i := range c {
		for j := range d {
			cen.Set(i, j, rng.NormFloat64())
		}
	}
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range y {
		ci := i % c
		y[i] = 1
		if cen.At(ci, 0) < 0 {
			y[i] = -1
		}
		if rng.Float64() < flip {
			y[i] = -y[i]
		}
		for j := range d {
			x.Set(i, j, cen.At(ci, j)+spread*rng.NormFloat64())
		}
	}
	return x, y
}

// TestFITCDampingHalved checks that InferFITC's parallel updates, which
// oscillate at the default step on clusters of near-duplicate inputs with
// conflicting labels, converge once the step is halved, to the EP fixed
// point of dense EP on the same FITC prior.
func TestFITCDampingHalved(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		flip float64
	}{{1, 0.1}, {2, 0.1}, {3, 0}} {
		x, y := clusters(300, 30, 2, 0.01, c.flip, c.seed)
		n, _ := x.Dims()
		xm := mat.DenseCopyOf(x.Slice(n-30, n, 0, 2))
		k := kernel.SE{Var: 1000, Len2: 1, Jitter: 1e-2}
		o := &Options{SiteTol: 1e-9, MaxSweeps: 300}
		f, err := InferFITC(context.Background(), k, x, y, xm, nil, o)
		if err != nil {
			t.Fatalf("seed %d: %v", c.seed, err)
		}
		if !(f.Damping < DefaultDamping) {
			t.Fatalf("seed %d: converged at step %v in %d sweeps: the data no longer oscillate, the test checks nothing", c.seed, f.Damping, f.Sweeps)
		}
		s0, _ := fitcPrior(k, x, xm, x.Slice(0, 1, 0, 2).(*mat.Dense))
		d, err := InferCov(s0, nil, y, nil, &Options{Tol: 1e-10, SiteTol: 1e-7, MaxSweeps: 1000})
		if err != nil {
			t.Fatalf("seed %d: dense EP: %v", c.seed, err)
		}
		const tol = 1e-4 // dense EP stops at SiteTol 1e-7
		if math.Abs(f.LogZ-d.LogZ) > tol*(1+math.Abs(d.LogZ)) {
			t.Errorf("seed %d: log Z_EP: FITC %v, dense %v", c.seed, f.LogZ, d.LogZ)
		}
		for i := range y {
			if math.Abs(f.Mean[i]-d.Mean[i]) > tol*(1+math.Abs(d.Mean[i])) || math.Abs(f.Var[i]-d.Var[i]) > tol*(1+d.Var[i]) {
				t.Fatalf("seed %d: marginal %d: FITC N(%v, %v), dense N(%v, %v)", c.seed, i, f.Mean[i], f.Var[i], d.Mean[i], d.Var[i])
			}
		}
		t.Logf("seed %d: %d sweeps, step %v", c.seed, f.Sweeps, f.Damping)
	}
	// With too few sweeps even for the halved steps, the last posterior
	// comes back with a *FITCNotConvergedError that holds it.
	x, y := clusters(300, 30, 2, 0.01, 0.1, 1)
	xm := mat.DenseCopyOf(x.Slice(270, 300, 0, 2))
	f, err := InferFITC(context.Background(), kernel.SE{Var: 1000, Len2: 1, Jitter: 1e-2}, x, y, xm, nil, &Options{MaxSweeps: 5})
	var nc *FITCNotConvergedError
	if !errors.As(err, &nc) || nc.FITC != f || f == nil || nc.Sweeps != 15 || f.Sweeps != 15 || f.Damping != DefaultDamping/4 ||
		!strings.Contains(err.Error(), "InferFITC not converged after 15 sweeps") {
		t.Errorf("5 sweeps per step: error %v, posterior %v", err, f != nil)
	}
}
