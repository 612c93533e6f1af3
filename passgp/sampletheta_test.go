package passgp

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSampleTheta checks Options.SampleTheta on imbalanced tasks (10%
// positives; sep 2, 2000 points): the second classifier is the method's at
// the random method's θ (the evidence optimum on the same random sample)
// kept fixed, the choice's NLLs are the two classifiers' calibrated
// held-out NLLs, and the one with the lower NLL is the result, bit for
// bit. With 5% of the labels flipped and M = 50, fPASS-GP's and IVM's own
// θ leave them at the majority rate's NLL and the sample's θ wins; without
// flips fPASS-GP's own θ wins. The option does nothing for PASS-GP, a
// random set or a fixed θ.
func TestSampleTheta(t *testing.T) {
	train := func(x *mat.Dense, y []float64, o Options) *Result {
		t.Helper()
		r, err := Train(context.Background(), x, y, &o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, c := range []struct {
		m    Method
		flip float64
		kept bool
	}{{FPASSGP, 0.05, true}, {IVM, 0.05, true}, {FPASSGP, 0, false}} {
		x, y := imbalanced(t, 2000, 1, 2, c.flip)
		n, m := len(y), c.m
		truth := binaryTruth(y)
		nll := func(r *Result) float64 {
			return r.Calibration.MeanNLL(mat.NewDense(n, 1, r.HeldOut), mat.NewDense(n, 1, r.HeldOutShare), truth)
		}
		k := DefaultKernel(m, 4)
		o := Options{Method: m, Kernel: k, M: 50, Init: 50, Sub: 5, Seed: 1, Threads: 1}
		plain := train(x, y, o)
		rnd := train(x, y, Options{Method: Random, Kernel: k, M: 50, Init: 50, Seed: 1, Threads: 1})
		fo := o
		fo.Kernel, fo.FixedTheta = rnd.Model.Kernel, true
		fixed := train(x, y, fo)
		o.SampleTheta = true
		res := train(x, y, o)
		ch := res.SampleTheta
		if ch == nil {
			t.Fatalf("%v: no choice recorded", m)
		}
		if !slices.Equal(ch.Theta, rnd.Model.Kernel.Params()) {
			t.Errorf("%v: sample θ %v, the random method's %v", m, ch.Theta, rnd.Model.Kernel.Params())
		}
		if ch.NLL != nll(plain) || ch.SampleNLL != nll(fixed) {
			t.Errorf("%v: NLLs %v and %v, the classifiers' %v and %v", m, ch.NLL, ch.SampleNLL, nll(plain), nll(fixed))
		}
		want := plain
		if ch.SampleNLL < ch.NLL {
			want = fixed
		}
		if ch.Kept != (want == fixed) || !slices.Equal(res.HeldOut, want.HeldOut) || !slices.Equal(res.Model.Active, want.Model.Active) ||
			!slices.Equal(res.Model.Kernel.Params(), want.Model.Kernel.Params()) {
			t.Errorf("%v: kept %v with NLLs %v (own θ) and %v (sample): not the better classifier", m, ch.Kept, ch.NLL, ch.SampleNLL)
		}
		if !(res.Elapsed >= ch.Elapsed) || !slices.Equal(res.Theta0, plain.Theta0) {
			t.Errorf("%v: elapsed %v (second classifier %v), Theta0 %v (want %v)", m, res.Elapsed, ch.Elapsed, res.Theta0, plain.Theta0)
		}
		if ch.Kept != c.kept {
			t.Errorf("%v, flip %v: kept the sample's θ: %v, want %v (NLLs %v own, %v sample)", m, c.flip, ch.Kept, c.kept, ch.NLL, ch.SampleNLL)
		}
		t.Logf("%v, flip %v: held-out error %.4f (own θ) %.4f (sample θ); %v", m, c.flip, plain.HeldOutError, fixed.HeldOutError, ch)
	}
	// With FITCFallback, each classifier gets its pass before the choice:
	// fPASS-GP with 20 active points decides the majority class with its
	// own θ (TestFITCFallback) and is weighed after its FITC pass.
	x, y := imbalanced(t, 1500, 1, 2, 0.05)
	n, truth := len(y), binaryTruth(y)
	o := Options{Method: FPASSGP, M: 20, Init: 20, Sub: 5, PExc: 0.1, Seed: 1, Threads: 1, FITCFallback: true}
	own := train(x, y, o)
	rnd := train(x, y, Options{Method: Random, M: 20, Init: 20, Seed: 1, Threads: 1})
	fo := o
	fo.Kernel, fo.FixedTheta = rnd.Model.Kernel, true
	fixed := train(x, y, fo)
	o.SampleTheta = true
	res := train(x, y, o)
	nll := func(r *Result) float64 {
		return r.Calibration.MeanNLL(mat.NewDense(n, 1, r.HeldOut), mat.NewDense(n, 1, r.HeldOutShare), truth)
	}
	want := own
	if nll(fixed) < nll(own) {
		want = fixed
	}
	if ch := res.SampleTheta; !own.FITCFallback || ch == nil || ch.NLL != nll(own) || ch.SampleNLL != nll(fixed) ||
		res.FITCFallback != want.FITCFallback || !slices.Equal(res.HeldOut, want.HeldOut) {
		t.Errorf("with the fallback: own θ's fallback %v, choice %v; result's fallback %v, want %v", own.FITCFallback, ch, res.FITCFallback, want.FITCFallback)
	}

	x, y = imbalanced(t, 1000, 1, 2, 0.05)
	for _, o := range []Options{
		{Method: PASSGP, Init: 20, Sub: 5, Seed: 1, Threads: 1, SampleTheta: true},
		{Method: Random, M: 20, Init: 20, Seed: 1, Threads: 1, SampleTheta: true},
		{Method: FPASSGP, M: 20, Init: 20, Sub: 5, PExc: 0.1, Seed: 1, Threads: 1, SampleTheta: true, FixedTheta: true},
	} {
		if res := train(x, y, o); res.SampleTheta != nil {
			t.Errorf("%v (fixed θ %v): a second classifier was trained", o.Method, o.FixedTheta)
		}
	}
}
