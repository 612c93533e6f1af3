package passgp

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestBoundSearch: where the budget bound at a θ with a short length
// scale (driftedRun) and the FITC posterior at that θ loses to the active
// set's, the trial's third FITC posterior, at θ from the FITC evidence of
// a random sample of 10 points per inducing input (boundSearch), is
// clearly better on the held-out training labels and becomes the
// classifier: its kernel, FITC and active-set posteriors are at that θ,
// the held-out latents are its, and the trial is deterministic. Without
// the search or with a fixed θ there is none.
func TestBoundSearch(t *testing.T) {
	r := newRunner(1)
	run := func(set func(c *config)) (*Result, *config) {
		x, y, c, res := driftedRun(t)
		set(c)
		if err := boundPass(context.Background(), c, r, res, DenseRows(x), y); err != nil {
			t.Fatal(err)
		}
		return res, c
	}
	res, _ := run(func(*config) {})
	ch := res.BoundFITC
	if ch == nil || ch.SearchTheta == nil || !ch.Searched || !ch.Kept {
		t.Fatalf("trial %+v; want the searched θ's FITC posterior kept", ch)
	}
	if !(ch.FITCNLL > ch.ActiveNLL) || !(ch.SearchNLL < ch.FITCNLL-2*ch.SearchSE) || !(ch.SearchNLL < ch.ActiveNLL) {
		t.Errorf("trial %+v: want the kept θ's FITC posterior worse than the active set's, the search's clearly better than both", ch)
	}
	t.Logf("%v", ch)
	b := res.Model
	wantFITCTheta(t, b, ch.SearchTheta, "the searched θ")
	if ch.SearchTheta[1] <= 0.2 {
		t.Errorf("searched θ %v: want a longer length scale than the drifted 0.2", ch.SearchTheta)
	}
	if len(b.Inducing) != 20 || res.Calibration == nil || !(res.HeldOutError < res.MajorityRate) {
		t.Errorf("inducing %v, calibration %v, held-out error %v, majority rate %v", b.Inducing, res.Calibration,
			res.HeldOutError, res.MajorityRate)
	}
	x0, _, _, _ := driftedRun(t)
	z, _, _, err := heldOutLatents(context.Background(), r, b, DenseRows(x0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(z, res.HeldOut) {
		t.Error("held-out latents are not the searched θ's FITC posterior's")
	}
	again, _ := run(func(*config) {})
	if !slices.Equal(again.Model.Sparse.Beta, b.Sparse.Beta) || !slices.Equal(again.HeldOut, res.HeldOut) {
		t.Error("the trial with a search is not deterministic")
	}
	// The pass at the end of a run whose budget first bound in its last
	// pass (no trial) weighs the search on every training point.
	x, y, c, end := driftedRun(t)
	if err := boundPass(context.Background(), c, r, end, DenseRows(x), y); err != nil {
		t.Fatal(err)
	}
	if ch := end.BoundFITC; ch == nil || !ch.Searched || !ch.Kept || !slices.Equal(end.Model.Kernel.Params(), ch.SearchTheta) {
		t.Errorf("pass at the end %+v; want the searched θ's FITC posterior kept", ch)
	}

	for _, tc := range []struct {
		name string
		set  func(c *config)
	}{
		{"off", func(c *config) { c.noBoundSearch = true }},
		{"fixed θ", func(c *config) { c.FixedTheta = true }},
	} {
		res, _ := run(tc.set)
		if ch := res.BoundFITC; ch == nil || ch.SearchTheta != nil || ch.Searched || ch.Kept {
			t.Errorf("%s: trial %+v; want one without a search, not kept", tc.name, ch)
		}
	}
}

// TestBoundSearchNotChosen: where the budget bound at a θ near the FITC
// evidence's optimum, the search's screen stops it after Nelder-Mead;
// without the screen it ends near that θ and its FITC posterior is not
// clearly better; either way the classifier is bit for bit the one of the
// trial without the search.
func TestBoundSearchNotChosen(t *testing.T) {
	r := newRunner(1)
	run := func(search bool) *Result {
		x, y, _ := noisy(t, 1500, 1)
		o := boundOptions(0)
		o.Kernel, o.FixedTheta = kernel.SE{Var: 0.82, Len2: 4.4, Jitter: 1e-3}, true
		res, err := Train(context.Background(), x, y, &o)
		if err != nil {
			t.Fatal(err)
		}
		o.FixedTheta, o.BoundFITC = false, 40
		c, err := resolve(&o, 4)
		if err != nil {
			t.Fatal(err)
		}
		c.noBoundSearch = !search
		c.lower, c.upper, _ = thetaBounds(&c, DenseRows(x))
		if err := boundPass(context.Background(), &c, r, res, DenseRows(x), y); err != nil {
			t.Fatal(err)
		}
		return res
	}
	off := run(false)
	// With the screen, the search stops after Nelder-Mead; without it, it
	// runs to its end and its posterior on the pass's points is not
	// clearly better. Either way the classifier is the one without it.
	for _, screen := range []bool{true, false} {
		screenSearch = screen
		on := run(true)
		screenSearch = true
		ch := on.BoundFITC
		if ch == nil || ch.SearchTheta == nil || ch.Searched || ch.SearchScreened != screen || off.BoundFITC.SearchTheta != nil {
			t.Fatalf("screen %v: trial %+v; want a search that is not chosen", screen, ch)
		}
		t.Logf("%v", ch)
		if !slices.Equal(on.HeldOut, off.HeldOut) || !slices.Equal(on.Model.Kernel.Params(), off.Model.Kernel.Params()) ||
			!slices.Equal(on.Model.Post.Sites.Nu, off.Model.Post.Sites.Nu) || (on.Model.Sparse == nil) != (off.Model.Sparse == nil) ||
			on.BoundFITC.Kept != off.BoundFITC.Kept {
			t.Errorf("screen %v: a search that is not chosen changed the classifier", screen)
		}
	}
}

// driftedRun is TestBoundFITCNotKept's classifier: a length scale of 0.45
// in 4 dimensions held fixed while the budget binds, where 20 inducing
// inputs cannot carry the FITC posterior; with the configuration of a run
// that optimises θ.
func driftedRun(t *testing.T) (*mat.Dense, []float64, *config, *Result) {
	t.Helper()
	x, y, _ := noisy(t, 1500, 1)
	o := driftedOptions(0)
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	o.FixedTheta, o.BoundFITC = false, 20
	c, err := resolve(&o, 4)
	if err != nil {
		t.Fatal(err)
	}
	c.lower, c.upper, _ = thetaBounds(&c, DenseRows(x))
	return x, y, &c, res
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
