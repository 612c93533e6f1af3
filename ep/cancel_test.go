package ep

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"testing"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// countCtx is a context whose Err reports context.Canceled from its
// after-th call on: a cancellation that arrives at a known point of a run.
type countCtx struct {
	context.Context
	calls atomic.Int64
	after int64
}

func (c *countCtx) Err() error {
	if c.calls.Add(1) >= c.after {
		return context.Canceled
	}
	return nil
}

func newCountCtx(after int64) *countCtx {
	return &countCtx{Context: context.Background(), after: after}
}

// TestInferContextCancel: a context that ends after a few checks stops EP
// before it converges (it needs more sweeps than the checks allow), and a
// done context stops it before any work.
func TestInferContextCancel(t *testing.T) {
	x, y := blobs(60, 11)
	k := kernel.SE{Var: 5, Len2: 0.5, Jitter: 1e-6}
	for _, s := range schedules {
		o := &Options{Schedule: s, Tol: 1e-12, MaxSweeps: 1000}
		p, err := Infer(k, x, y, nil, o)
		if err != nil || p.Sweeps < 6 {
			t.Fatalf("%v: reference run: %v sweeps, err %v", s, p.Sweeps, err)
		}
		// InferContext, run, then per sweep the loop and, in refresh,
		// after the Cholesky factor and before the one panel of the
		// solve: the fifth check is in the second sweep.
		ctx := newCountCtx(5)
		if _, err := InferContext(ctx, k, x, y, nil, o); !errors.Is(err, context.Canceled) {
			t.Errorf("%v: err = %v, want context.Canceled", s, err)
		}
		if got := ctx.calls.Load(); got != 5 {
			t.Errorf("%v: ctx checked %d times, want 5 (stop at the first check after cancellation)", s, got)
		}
		done, cancel := context.WithCancel(context.Background())
		cancel()
		if p, err := InferContext(done, k, x, y, nil, o); p != nil || !errors.Is(err, context.Canceled) {
			t.Errorf("%v: done context: post %v, err %v", s, p, err)
		}
	}
}

// TestOptimizeContextCancel: the search stops within the EP run during
// which its context ends.
func TestOptimizeContextCancel(t *testing.T) {
	x, y := blobs(60, 12)
	k := kernel.SE{Var: 1, Len2: 1, Jitter: 1e-6}
	o := &OptimizeOptions{MaxEvals: 50}
	r, err := Optimize(k, x, y, nil, o)
	if err != nil || r.Evals < 5 {
		t.Fatalf("reference search: %v evals, err %v", r.Evals, err)
	}
	ctx := newCountCtx(12)
	r, err = OptimizeContext(ctx, k, x, y, nil, o)
	if r != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("result %v, err %v, want nil and context.Canceled", r, err)
	}
	// 12 checks cover a few EP runs; the reference search took many more.
	if got := ctx.calls.Load(); got > 14 {
		t.Errorf("ctx checked %d times after cancellation at the 12th", got)
	}
}

// TestOptimizeReportsNotConverged: an EP run capped below its stopping
// rule is reported, not turned into a silent success.
func TestOptimizeReportsNotConverged(t *testing.T) {
	x, y := blobs(40, 13)
	k := kernel.SE{Var: 2, Len2: 1, Jitter: 1e-6}
	r, err := Optimize(k, x, y, nil, &OptimizeOptions{MaxEvals: 5, EP: Options{Tol: 1e-14, MinSweeps: 1, MaxSweeps: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.NotConverged || r.NotConvergedEvals != r.Evals {
		t.Errorf("NotConverged %v, %d of %d runs not converged; want every run reported", r.NotConverged, r.NotConvergedEvals, r.Evals)
	}
	r, err = Optimize(k, x, y, nil, &OptimizeOptions{MaxEvals: 5})
	if err != nil || r.NotConverged || r.NotConvergedEvals != 0 {
		t.Errorf("default EP: NotConverged %v (%d runs), err %v", r.NotConverged, r.NotConvergedEvals, err)
	}
}

// TestOptionsValidate: bad options are errors from Infer and Optimize,
// not panics.
func TestOptionsValidate(t *testing.T) {
	x, y := blobs(10, 14)
	k := kernel.SE{Var: 1, Len2: 1, Jitter: 1e-6}
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"schedule", Options{Schedule: Schedule(7)}},
		{"damping > 1", Options{Damping: 1.5}},
		{"damping < 0", Options{Damping: -0.1}},
		{"damping NaN", Options{Damping: math.NaN()}},
		{"tol < 0", Options{Tol: -1}},
		{"tol NaN", Options{Tol: math.NaN()}},
		{"sitetol < 0", Options{SiteTol: -1}},
		{"maxsweeps < 0", Options{MaxSweeps: -1}},
		{"minsweeps < 0", Options{MinSweeps: -1}},
		{"min > max", Options{MinSweeps: 5, MaxSweeps: 3}},
	} {
		if err := tc.o.Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", tc.name, tc.o)
		}
		if _, err := Infer(k, x, y, nil, &tc.o); err == nil {
			t.Errorf("%s: Infer accepted %+v", tc.name, tc.o)
		}
		if _, err := Optimize(k, x, y, nil, &OptimizeOptions{EP: tc.o}); err == nil {
			t.Errorf("%s: Optimize accepted %+v", tc.name, tc.o)
		}
	}
	for _, o := range []*Options{nil, {}, {Damping: 1, Tol: 1e-6, MaxSweeps: 1}, {Schedule: Sequential, MinSweeps: 3, MaxSweeps: 3}} {
		if err := o.Validate(); err != nil {
			t.Errorf("%+v rejected: %v", o, err)
		}
	}
}

// TestCavityGuard: a site precision so large that 1/Var - τ̃ rounds to
// zero or below gives a finite, uninformative cavity instead of a NaN or
// a negative variance.
func TestCavityGuard(t *testing.T) {
	p := &Posterior{n: 3, Y: []float64{1, -1, 1},
		Var:   []float64{1e-3, 1e-3, 0.5},
		Mean:  []float64{0.2, 0.3, 0.1},
		Sites: Sites{Tau: []float64{1000, 1e3 * (1 + 1e-15), 1}, Nu: []float64{150, -200, 0.1}},
	}
	mean, vr, prob := make([]float64, 3), make([]float64, 3), make([]float64, 3)
	p.CavityTo(mean, vr)
	p.CavityProbTo(prob)
	for i := range 3 {
		if math.IsNaN(mean[i]) || math.IsInf(mean[i], 0) || !(vr[i] > 0) || math.IsInf(vr[i], 0) || !(prob[i] >= 0 && prob[i] <= 1) {
			t.Errorf("site %d: cavity mean %v, variance %v, probability %v", i, mean[i], vr[i], prob[i])
		}
	}
	// The ordinary site is untouched by the guard.
	if tc := 1/0.5 - 1.0; math.Abs(vr[2]-1/tc) > 0 || math.Abs(mean[2]-(0.1/0.5-0.1)/tc) > 0 {
		t.Errorf("ordinary site: mean %v, variance %v", mean[2], vr[2])
	}
}

// TestInferContextCancelInSweep: with more points than one leaf of the
// Cholesky factorisation, a cancellation inside the factorisation or
// inside the inversion of its factor (la.CholeskyInvStop, for varByInverse:
// 26 of the 1100 sites are weak at the end, so the refresh takes that
// path) stops the sweep there:
// the context is not asked again (no later step, no later sweep), and the
// run returns context.Canceled.
func TestInferContextCancelInSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("an EP sweep on 1100 points")
	}
	x, y := blobs(refreshPanel+76, 12)
	k := kernel.SE{Var: 5, Len2: 0.5, Jitter: 1e-6}
	// Uncancelled, the context is asked per sweep in the loop, between
	// the level-3 steps of the factorisation and of the inversion, after
	// both, and once before the weak sites' columns.
	all := newCountCtx(1 << 62)
	p, err := InferContext(all, k, x, y, nil, &Options{Tol: 1e-2})
	if err != nil {
		t.Fatal(err)
	}
	weak := 0
	for _, tau := range p.Sites.Tau {
		if isWeak(tau, k.Var+k.Jitter) {
			weak++
		}
	}
	if 2*weak > len(y) {
		t.Fatalf("%d weak sites of %d: the refresh would not invert the factor", weak, len(y))
	}
	perSweep := (all.calls.Load() - 2) / int64(p.Sweeps)
	if (all.calls.Load()-2)%int64(p.Sweeps) != 0 || perSweep < 6 {
		t.Fatalf("%d sweeps, %d checks: want the same number in every sweep, at least 6", p.Sweeps, all.calls.Load())
	}
	// InferContext, run, then the first sweep: its loop check, the
	// factorisation's first step; and the last check of the sweep, after
	// the inversion.
	for _, after := range []int64{4, 2 + perSweep} {
		ctx := newCountCtx(after)
		if _, err := InferContext(ctx, k, x, y, nil, &Options{}); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at check %d: err = %v, want context.Canceled", after, err)
		}
		if got := ctx.calls.Load(); got != after {
			t.Errorf("cancelled at check %d: ctx checked %d times", after, got)
		}
	}
}
