package passgp

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// boundOptions are a two-pass PASS-GP run on noisy(1500) whose budget binds
// in the first pass.
func boundOptions(fitc int) Options {
	return Options{Init: 50, MaxActive: 150, Sub: 10, Passes: 2, Seed: 3,
		Threads: 1, BoundFITC: fitc}
}

// driftedOptions are boundOptions(fitc) at a fixed squared length scale of
// 0.1 in 4 dimensions, where a few inducing inputs cannot carry the FITC
// posterior (as at a θ that drifted to a short length scale).
func driftedOptions(fitc int) Options {
	o := boundOptions(fitc)
	o.Kernel, o.FixedTheta = kernel.SE{Var: 4, Len2: 0.1, Jitter: 1e-4}, true
	return o
}

// TestBoundFITC: where the budget binds on a smooth noisy task, the
// classifier is the FITC posterior on a subset of the active inputs at
// the kept θ or at the θ of the FITC evidence's search (whose evidence on
// the search's sample is above the kept θ's), whose held-out likelihood
// is the higher: its kernel, FITC and active-set posteriors are at
// that θ; it predicts from the FITC posterior (on exactly the subset's inputs),
// its held-out latents are that posterior's cavities, and the run is the
// same for 1 and 2 threads.
func TestBoundFITC(t *testing.T) {
	x, y, _ := noisy(t, 1500, 1)
	o := boundOptions(40)
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	ch := res.BoundFITC
	if ch == nil || ch.Failed != "" || ch.Inducing != 40 || ch.Points != 1500 || ch.Sweeps < 2 || !ch.Kept || !(ch.FITCNLL < ch.ActiveNLL) {
		t.Fatalf("FITC pass %+v; want 40 inducing inputs, 1500 points, a converged EP, kept on this smooth noisy task", ch)
	}
	if last := res.Batches[len(res.Batches)-1]; last.Pass != o.Passes-1 {
		t.Fatalf("last batch in pass %d of %d: training should run all its passes", last.Pass+1, o.Passes)
	}
	b := res.Model
	wantFITCTheta(t, b, ch.Theta, "the chosen θ")
	if b.Sparse == nil || len(b.Inducing) != 40 || !slices.IsSorted(b.Inducing) {
		t.Fatalf("classifier: Sparse %v, inducing indices %v", b.Sparse != nil, b.Inducing)
	}
	for r, i := range b.Inducing {
		if !slices.Equal(b.Sparse.Xm.RawRowView(r), b.X.RawRowView(i)) {
			t.Fatalf("inducing input %d is not active input %d", r, i)
		}
	}
	// Unless the kept θ was chosen, the search raised the FITC evidence
	// of its sample above the kept θ's.
	o.BoundFITC = 0
	kept, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	q := randomSubset(o.Seed, searchSalt, 1500, boundSearchPerInducing*40)
	xm := gatherRows(b.X, b.Inducing)
	evidence := func(th []float64) float64 {
		f, err := ep.InferFITC(context.Background(), b.Kernel.WithParams(th), gatherRows(x, q), gather(y, q), xm, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return f.LogZ
	}
	if k := kept.Model.Kernel.Params(); !slices.Equal(ch.Theta, k) && !(evidence(ch.Theta) > evidence(k)) {
		t.Errorf("FITC evidence %v at the chosen θ %v, %v at the kept θ %v", evidence(ch.Theta), ch.Theta, evidence(k), k)
	}
	// Held-out latents: the FITC cavities, as heldOutLatents gives them.
	z, _, _, err := heldOutLatents(context.Background(), newRunner(1), b, DenseRows(x), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(z, res.HeldOut) {
		t.Error("held-out latents are not the FITC posterior's")
	}
	// The held-out error and the majority rate it is judged against (train
	// warns where the one is not below the other).
	pos := 0
	for _, v := range y {
		if v > 0 {
			pos++
		}
	}
	if want := float64(min(pos, len(y)-pos)) / float64(len(y)); res.MajorityRate != want || !(res.HeldOutError < want) {
		t.Errorf("held-out error %v, majority rate %v; want below %v", res.HeldOutError, res.MajorityRate, want)
	}
	// Predictions come from the FITC posterior.
	mean, want, v := make([]float64, 5), make([]float64, 5), make([]float64, 5)
	xs := x.Slice(0, 5, 0, 4).(*mat.Dense)
	b.PredictMeanVarTo(mean, nil, xs)
	b.Sparse.PredictTo(want, v, nil, xs)
	if !slices.Equal(mean, want) {
		t.Errorf("predictive means %v, FITC's %v", mean, want)
	}
	o.Threads, o.BoundFITC = 2, 40
	res2, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res2.Model.Sparse.Beta, b.Sparse.Beta) || !slices.Equal(res2.HeldOut, res.HeldOut) {
		t.Error("1 and 2 threads give different FITC posteriors")
	}
}

// TestBoundFITCDrifted: where the budget bound at a θ with a short length
// scale (0.1 in 4 dimensions, held fixed during selection), the search of
// the FITC evidence moves to a longer one, and that posterior predicts
// the held-out training labels better than the active set's: it becomes
// the classifier's. With θ fixed, 20 inducing inputs cannot carry the
// FITC posterior at that length scale (held-out NLL 0.660 against the
// active set's 0.572): the classifier and its held-out latents stay the
// active set's.
func TestBoundFITCDrifted(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		x, y, _ := noisy(t, 1500, 1)
		o := driftedOptions(0)
		res, err := Train(context.Background(), x, y, &o)
		if err != nil {
			t.Fatal(err)
		}
		before := *res
		o.FixedTheta, o.BoundFITC = fixed, 20
		c, err := resolve(&o, 4)
		if err != nil {
			t.Fatal(err)
		}
		// A floor below the drifted length scale, which a search from
		// PASS-GP's kept θ, found within the floor, has.
		c.lower = []float64{1e-8, 0.01, 1e-8}
		if err := boundPass(context.Background(), &c, newRunner(1), res, DenseRows(x), y, nil); err != nil {
			t.Fatal(err)
		}
		ch := res.BoundFITC
		if ch == nil || ch.Failed != "" || ch.Kept == fixed || (ch.FITCNLL < ch.ActiveNLL) != ch.Kept {
			t.Fatalf("fixed θ %v: FITC pass %+v", fixed, ch)
		}
		t.Logf("fixed θ %v: %v", fixed, ch)
		if fixed {
			if res.Model != before.Model || !slices.Equal(res.HeldOut, before.HeldOut) || res.Calibration != before.Calibration {
				t.Error("a FITC posterior not kept changed the classifier")
			}
			continue
		}
		wantFITCTheta(t, res.Model, ch.Theta, "the searched θ")
		if ch.Theta[1] <= 0.1 || ch.ActiveNLL != mustCrossFitNLL(t, before.HeldOut, before.HeldOutShare, y) {
			t.Errorf("θ %v from a squared length scale of 0.1; active set's NLL %v", ch.Theta, ch.ActiveNLL)
		}
	}
}

// mustCrossFitNLL is calib.CrossFitNLL of binary held-out latents.
func mustCrossFitNLL(t *testing.T, z, rho, y []float64) float64 {
	t.Helper()
	n := len(z)
	v, err := calib.CrossFitNLL(mat.NewDense(n, 1, z), mat.NewDense(n, 1, rho), calib.BinaryTruth(y), crossFitSeed)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestBoundFITCNoBudget: where the budget never binds, the option changes
// nothing.
func TestBoundFITCNoBudget(t *testing.T) {
	x, y, _ := noisy(t, 300, 2)
	o := boundOptions(20)
	o.MaxActive = 0
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if res.BoundFITC != nil {
		t.Errorf("FITC pass %+v without a budget", res.BoundFITC)
	}
	o.BoundFITC = 0
	want, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Model.Sparse != nil || !slices.Equal(res.Model.Active, want.Model.Active) || !slices.Equal(res.Model.Kernel.Params(), want.Model.Kernel.Params()) ||
		!slices.Equal(res.Model.Post.Sites.Nu, want.Model.Post.Sites.Nu) || !slices.Equal(res.HeldOut, want.HeldOut) {
		t.Error("the classifier differs from the one trained without BoundFITC")
	}
}

// TestBoundFITCFailed: where the FITC posterior's EP does not converge
// (near-duplicate inputs with conflicting labels, 5 sweeps per step), the
// stage says so and the classifier, held-out latents and calibration are
// the active set's, those of the run without the stage.
func TestBoundFITCFailed(t *testing.T) {
	x, y := conflicted(600)
	o := Options{Init: 30, MaxActive: 40, Sub: 4, Passes: 1, Seed: 1, Threads: 1, FixedTheta: true, BoundFITC: 40,
		Kernel: kernel.SE{Var: 1000, Len2: 1, Jitter: 1e-2}, EP: ep.Options{MaxSweeps: 5}}
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if ch := res.BoundFITC; ch == nil || ch.Failed == "" || res.Model.Sparse != nil {
		t.Fatalf("FITC pass %+v; want one that failed", ch)
	}
	o.BoundFITC = 0
	want, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.HeldOut, want.HeldOut) || !slices.Equal(res.Model.Post.Sites.Nu, want.Model.Post.Sites.Nu) ||
		res.Calibration.A != want.Calibration.A || res.HeldOutError != want.HeldOutError {
		t.Error("after a failed FITC pass, the classifier or its held-out latents differ from the run without it")
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

// TestBoundFITCSubset: beyond boundPointsPerInducing training points per
// inducing input, the pass runs EP on every active point and a random
// sample of the others, and the held-out latents of the points it did not
// run on are that posterior's predictions.
func TestBoundFITCSubset(t *testing.T) {
	x, y, _ := noisy(t, 1500, 1)
	o := boundOptions(10) // at most 1000 points
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	ch := res.BoundFITC
	if ch == nil || ch.Points != 1000 || ch.Inducing != 10 {
		t.Fatalf("FITC pass %+v; want 10 inducing inputs and 1000 points", ch)
	}
	sub := fitcPoints(o.Seed, res.Model.Active, 1500, 1000)
	if len(sub) != 1000 || !slices.IsSorted(sub) {
		t.Fatalf("%d points, sorted %v", len(sub), slices.IsSorted(sub))
	}
	for _, a := range res.Model.Active {
		if _, ok := slices.BinarySearch(sub, a); !ok {
			t.Fatalf("active point %d is not among the pass's points", a)
		}
	}
	// The held-out latents of such a posterior: cavities of the sampled
	// points, predictions of the others.
	b := res.Model
	xm := gatherRows(b.X, randomSubset(o.Seed, inducingSalt, len(b.Y), 10))
	f, err := ep.InferFITC(context.Background(), b.Kernel, gatherRows(x, sub), gather(y, sub), xm, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	nb := *b
	nb.Sparse = f
	z, _, _, err := fitcHeldOut(context.Background(), newRunner(1), &nb, DenseRows(x), sub)
	if err != nil {
		t.Fatal(err)
	}
	cm, cv := make([]float64, 1000), make([]float64, 1000)
	f.CavityTo(cm, cv)
	unsampled := 0
	for i := range 1500 {
		k, ok := slices.BinarySearch(sub, i)
		want := cm[k] / sqrtPos(1+cv[k])
		if !ok {
			m, v := make([]float64, 1), make([]float64, 1)
			f.PredictTo(m, v, nil, x.Slice(i, i+1, 0, 4).(*mat.Dense))
			want = m[0] / sqrtPos(1+v[0])
			unsampled++
		}
		if math.Abs(z[i]-want) > 1e-12*(1+math.Abs(want)) {
			t.Fatalf("held-out latent of point %d (sampled %v): %v, want %v", i, ok, z[i], want)
		}
	}
	if unsampled != 500 {
		t.Errorf("%d unsampled points", unsampled)
	}
	// Subsets are drawn from the seed alone.
	if again := fitcPoints(o.Seed, res.Model.Active, 1500, 1000); !slices.Equal(again, sub) {
		t.Error("fitcPoints is not deterministic")
	}
	if fitcPoints(o.Seed, res.Model.Active, 1000, 1000) != nil {
		t.Error("fitcPoints subsamples at the limit")
	}
}

// TestBestFITC: of candidate FITC posteriors at two θ, bestFITC returns
// the one whose cavities give the training labels the lower cross-fitted
// NLL, with its held-out latents, whichever order they come in.
func TestBestFITC(t *testing.T) {
	x, y, _ := noisy(t, 400, 2)
	o := boundOptions(0)
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	b := res.Model
	xm := gatherRows(b.X, randomSubset(3, inducingSalt, len(b.Y), 30))
	var fs []*ep.FITC
	var nll []float64
	for _, len2 := range []float64{0.05, 2} {
		k := b.Kernel.WithParams([]float64{b.Kernel.Params()[0], len2, b.Kernel.Params()[2]})
		f, err := ep.InferFITC(context.Background(), k, x, y, xm, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		view := *b
		view.Kernel, view.Sparse = k, f
		z, rho, _, err := fitcHeldOut(context.Background(), newRunner(1), &view, DenseRows(x), nil)
		if err != nil {
			t.Fatal(err)
		}
		fs, nll = append(fs, f), append(nll, mustCrossFitNLL(t, z, rho, y))
	}
	want := 0
	if nll[1] < nll[0] {
		want = 1
	}
	if nll[0] == nll[1] {
		t.Fatalf("equal NLL %v at both θ: no choice to test", nll)
	}
	for _, order := range [][]int{{0, 1}, {1, 0}} {
		var ch FITCPass
		f, z, _, _, err := bestFITC(context.Background(), newRunner(1), b, []*ep.FITC{fs[order[0]], fs[order[1]]}, DenseRows(x), nil, calib.BinaryTruth(y), &ch)
		if err != nil {
			t.Fatal(err)
		}
		if f != fs[want] || ch.FITCNLL != nll[want] || len(z) != len(y) {
			t.Errorf("order %v: chose NLL %v, want the lower of %v", order, ch.FITCNLL, nll)
		}
	}
}
