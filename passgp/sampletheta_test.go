package passgp

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSampleTheta checks Options.SampleTheta on imbalanced tasks (10%
// positives; sep 2, 2000 points): the second classifier is the method's at
// the random method's θ (the evidence optimum on the same random sample)
// kept fixed, fPASS-GP's ranked by the boundary, the choice's NLLs are the
// two classifiers' calibrated held-out NLLs, and the second is the result,
// bit for bit, where clearlyBetter says so. With 5% of the labels flipped and M = 50, fPASS-GP's and IVM's own
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
		if m == FPASSGP {
			fo.Rank = RankBoundary
		}
		fixed := train(x, y, fo)
		o.SampleTheta = true
		var first, second int // progress reports of each classifier
		o.Progress = func(p Progress) {
			if p.Second {
				second++
			} else if second == 0 {
				first++
			} else {
				t.Errorf("%v: a report of the first classifier after the second's", m)
			}
		}
		res := train(x, y, o)
		if first == 0 || second == 0 {
			t.Errorf("%v: %d progress reports of the first classifier, %d of the second", m, first, second)
		}
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
		if _, _, se, better := clearlyBetter(pointNLL(plain, truth), pointNLL(fixed, truth)); better {
			want = fixed
		} else if se != ch.SE {
			t.Errorf("%v: SE %v, want %v", m, ch.SE, se)
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
	fo.Kernel, fo.FixedTheta, fo.Rank = rnd.Model.Kernel, true, RankBoundary
	fixed := train(x, y, fo)
	o.SampleTheta = true
	res := train(x, y, o)
	nll := func(r *Result) float64 {
		return r.Calibration.MeanNLL(mat.NewDense(n, 1, r.HeldOut), mat.NewDense(n, 1, r.HeldOutShare), truth)
	}
	want := own
	if _, _, _, better := clearlyBetter(pointNLL(own, truth), pointNLL(fixed, truth)); better {
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

// TestClearlyBetter checks the paired rule against hand-computed cases.
func TestClearlyBetter(t *testing.T) {
	for _, c := range []struct {
		a, b   []float64
		se     float64
		better bool
	}{
		// Differences 0.3, 0.1, 0.2, 0.2: mean 0.2, variance 0.005, SE
		// √(0.005/4) = 0.0354.
		{[]float64{0.5, 0.3, 0.4, 0.6}, []float64{0.2, 0.2, 0.2, 0.4}, math.Sqrt(0.005 / 4), true},
		// Differences ±0.2: mean 0, SE √(0.04/2).
		{[]float64{0.5, 0.1}, []float64{0.3, 0.3}, math.Sqrt(0.04 / 2), false},
		// b worse everywhere.
		{[]float64{0.1, 0.2, 0.3}, []float64{0.2, 0.3, 0.4}, 0, false},
		// A constant improvement has SE 0: better.
		{[]float64{0.3, 0.4}, []float64{0.2, 0.3}, 0, true},
		// Differences 0.1, 0.1, 0.1, −0.25: mean 0.0125, mean square
		// 0.0925/4, SE 0.0758: not better by two of them.
		{[]float64{0.2, 0.2, 0.2, 0.1}, []float64{0.1, 0.1, 0.1, 0.35}, math.Sqrt((0.0925/4 - 0.0125*0.0125) / 4), false},
	} {
		ma, mb, se, better := clearlyBetter(c.a, c.b)
		if math.Abs(se-c.se) > 1e-12 || better != c.better {
			t.Errorf("%v against %v: SE %v better %v, want %v %v", c.a, c.b, se, better, c.se, c.better)
		}
		var sa, sb float64
		for i := range c.a {
			sa += c.a[i]
			sb += c.b[i]
		}
		if math.Abs(ma-sa/float64(len(c.a))) > 1e-15 || math.Abs(mb-sb/float64(len(c.b))) > 1e-15 {
			t.Errorf("means %v %v", ma, mb)
		}
	}
}

// TestSampleThetaFailed: where the second classifier cannot be trained,
// the method's own classifier stays, bit for bit, with the reason
// recorded; a cancelled context during its training is returned.
func TestSampleThetaFailed(t *testing.T) {
	x, y := imbalanced(t, 1000, 1, 2, 0.05)
	o := Options{Method: FPASSGP, M: 30, Init: 30, Sub: 5, Seed: 1, Threads: 1}
	want, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { sampleTrain = train }()
	sampleTrain = func(context.Context, *mat.Dense, []float64, *config, *runner, string) (*Result, error) {
		return nil, errors.New("ep: P not positive definite")
	}
	o.SampleTheta = true
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	ch := res.SampleTheta
	if ch == nil || ch.Kept || !strings.Contains(ch.String(), "no classifier at θ from a random sample (ep: P not positive definite)") ||
		!slices.Equal(res.HeldOut, want.HeldOut) || !slices.Equal(res.Model.Kernel.Params(), want.Model.Kernel.Params()) {
		t.Errorf("a failed second classifier: %v", ch)
	}
	sampleTrain = train
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o.Progress = func(p Progress) {
		if p.Second {
			cancel()
		}
	}
	if _, err := Train(ctx, x, y, &o); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled during the second classifier: %v", err)
	}
}

// pointNLL returns each training point's NLL under r's calibrated
// held-out latents.
func pointNLL(r *Result, truth []int) []float64 {
	n := len(truth)
	v := make([]float64, n)
	r.Calibration.NLLTo(v, mat.NewDense(n, 1, r.HeldOut), mat.NewDense(n, 1, r.HeldOutShare), truth)
	return v
}
