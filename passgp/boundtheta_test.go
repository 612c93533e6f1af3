package passgp

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// driftedRun is TestBoundFITCNotKept's classifier: a length scale of 0.45
// in 4 dimensions held fixed while the budget binds, where 20 inducing
// inputs cannot carry the FITC posterior; with the configuration of a run
// that optimises θ from theta0 (the run's initial θ) and gives stalled
// searches a second start.
func driftedRun(t *testing.T, theta0 []float64) (*mat.Dense, []float64, *config, *Result) {
	t.Helper()
	x, y, _ := noisy(t, 1500, 1)
	o := driftedOptions(0)
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	res.Theta0 = theta0
	o.FixedTheta, o.RestartStalled, o.BoundFITC = false, 1, 20
	c, err := resolve(&o, 4)
	if err != nil {
		t.Fatal(err)
	}
	c.lower, c.upper = thetaBounds(&c, x)
	return x, y, &c, res
}

// TestBoundTheta: where the FITC posterior at the kept θ loses to the
// active set's, the trial weighs a second θ, the end of a search from the
// run's initial θ on the active set (boundTheta); where that θ's FITC
// posterior predicts the held-out training labels best, the classifier
// is the FITC posterior at that θ, its active-set posterior and kernel
// too, and it is deterministic. Without a second start, with a fixed θ, or
// where the initial θ is the kept one, the trial is session 29's.
func TestBoundTheta(t *testing.T) {
	r := &runner{threads: 1}
	x, y, c, res := driftedRun(t, []float64{1, 2, 1e-4})
	if err := boundPass(context.Background(), c, r, res, x, y, true); err != nil {
		t.Fatal(err)
	}
	ch := res.BoundFITC
	if ch == nil || ch.SecondTheta == nil || !ch.Second || !ch.Kept || !(ch.SecondNLL < ch.FITCNLL) || !(ch.SecondNLL < ch.ActiveNLL) {
		t.Fatalf("trial %+v; want the second θ's FITC posterior kept", ch)
	}
	t.Logf("%v", ch)
	b := res.Model
	wantFITCTheta(t, b, ch.SecondTheta, "the second θ")
	if len(b.Inducing) != 20 || res.Calibration == nil || !(res.HeldOutError < res.MajorityRate) {
		t.Errorf("inducing %v, calibration %v, held-out error %v, majority rate %v", b.Inducing, res.Calibration,
			res.HeldOutError, res.MajorityRate)
	}
	z, _, _, err := heldOutLatents(context.Background(), r, b, x, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(z, res.HeldOut) {
		t.Error("held-out latents are not the second θ's FITC posterior's")
	}
	x, y, c, again := driftedRun(t, []float64{1, 2, 1e-4})
	if err := boundPass(context.Background(), c, r, again, x, y, true); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Model.Sparse.Beta, b.Sparse.Beta) || !slices.Equal(again.HeldOut, res.HeldOut) {
		t.Error("the trial with a second θ is not deterministic")
	}

	for _, tc := range []struct {
		name string
		set  func(c *config, res *Result)
	}{
		{"no second start", func(c *config, _ *Result) { c.RestartStalled = 0 }},
		{"fixed θ", func(c *config, _ *Result) { c.FixedTheta = true }},
		{"initial θ kept", func(_ *config, res *Result) { res.Theta0 = res.Model.Kernel.Params() }},
		{"lower evidence at the initial θ", func(_ *config, res *Result) { res.Theta0 = []float64{0.01, 100, 1e-4} }},
	} {
		x, y, c, res := driftedRun(t, []float64{1, 2, 1e-4})
		tc.set(c, res)
		if err := boundPass(context.Background(), c, r, res, x, y, true); err != nil {
			t.Fatal(err)
		}
		if ch := res.BoundFITC; ch == nil || ch.SecondTheta != nil || ch.Kept {
			t.Errorf("%s: trial %+v; want one without a second θ, not kept", tc.name, ch)
		}
	}

	// Three inducing inputs: the second θ's FITC posterior is the better
	// one of the two, but the active set's predicts better still, so the
	// classifier stays the active set's at the kept θ.
	x, y, c, res = driftedRun(t, []float64{1, 2, 1e-4})
	c.BoundFITC = 3
	theta := res.Model.Kernel.Params()
	if err := boundPass(context.Background(), c, r, res, x, y, true); err != nil {
		t.Fatal(err)
	}
	if ch := res.BoundFITC; ch == nil || !ch.Second || ch.Kept || !(ch.SecondNLL > ch.ActiveNLL) {
		t.Fatalf("trial %+v; want the second θ's FITC posterior better than the kept θ's, not kept", ch)
	}
	if res.Model.Sparse != nil || !slices.Equal(res.Model.Kernel.Params(), theta) {
		t.Errorf("classifier: FITC %v, θ %v; want the active set's at %v", res.Model.Sparse != nil, res.Model.Kernel.Params(), theta)
	}
}

// wantFITCTheta checks that the FITC classifier b is at θ theta (what
// names it) throughout: its kernel, its FITC posterior and its active
// set's posterior.
func wantFITCTheta(t *testing.T, b *Binary, theta []float64, what string) {
	t.Helper()
	if !slices.Equal(b.Kernel.Params(), theta) || !slices.Equal(b.Sparse.Kernel.Params(), theta) ||
		!slices.Equal(b.Post.Kernel.Params(), theta) {
		t.Errorf("kernel %v, FITC %v, active set %v; want %s %v", b.Kernel.Params(), b.Sparse.Kernel.Params(),
			b.Post.Kernel.Params(), what, theta)
	}
}
