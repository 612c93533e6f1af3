package passgp

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

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
// 0.2 in 4 dimensions, where a few inducing inputs cannot carry the FITC
// posterior (as at a θ that drifted to a short length scale).
func driftedOptions(fitc int) Options {
	o := boundOptions(fitc)
	o.Kernel, o.FixedTheta = kernel.SE{Var: 4, Len2: 0.2, Jitter: 1e-4}, true
	return o
}

// TestBoundFITC: where the budget binds, the FITC pass after training on
// a subset of the active inputs becomes the classifier where its
// held-out likelihood is the better one;
// the classifier then predicts from the FITC posterior (on exactly the
// subset's inputs), its held-out latents are that posterior's cavities,
// and the run is the same for 1 and 2 threads. A classifier whose budget
// never binds is bit for bit the one trained without the option.
func TestBoundFITC(t *testing.T) {
	x, y, _ := noisy(t, 1500, 1)
	o := boundOptions(40)
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	ch := res.BoundFITC
	if ch == nil || !ch.Kept || ch.Failed != "" {
		t.Fatalf("FITC pass %+v; want one kept on this smooth noisy task", ch)
	}
	if ch.Inducing != 40 || ch.Sweeps < 2 || !(ch.FITCNLL < ch.ActiveNLL) {
		t.Errorf("FITC pass %+v: want 40 inducing inputs, a converged EP, a lower held-out NLL", ch)
	}
	if last := res.Batches[len(res.Batches)-1]; last.Pass != o.Passes-1 {
		t.Fatalf("last batch in pass %d of %d: training should run all its passes", last.Pass+1, o.Passes)
	}
	b := res.Model
	if b.Sparse == nil || len(b.Inducing) != 40 || !slices.IsSorted(b.Inducing) {
		t.Fatalf("classifier: Sparse %v, inducing indices %v", b.Sparse != nil, b.Inducing)
	}
	for r, i := range b.Inducing {
		if !slices.Equal(b.Sparse.Xm.RawRowView(r), b.X.RawRowView(i)) {
			t.Fatalf("inducing input %d is not active input %d", r, i)
		}
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
	o.Threads = 2
	res2, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res2.Model.Sparse.Beta, b.Sparse.Beta) || !slices.Equal(res2.HeldOut, res.HeldOut) {
		t.Error("1 and 2 threads give different FITC posteriors")
	}
}

// TestBoundFITCNotKept: where the FITC pass predicts the held-out training
// labels worse than the active set (held-out NLL 0.599 against 0.578: 20
// inducing inputs cannot carry a length scale of 0.45 in 4 dimensions), the classifier is the active set's, and training
// continues after the first pass: bit for bit the run without the option,
// plus the pass's record. Where the budget never binds, the option changes
// nothing.
func TestBoundFITCNotKept(t *testing.T) {
	x, y, _ := noisy(t, 1500, 1)
	o := driftedOptions(20)
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	ch := res.BoundFITC
	if ch == nil || ch.Kept || ch.Failed != "" || !(ch.FITCNLL > ch.ActiveNLL) {
		t.Fatalf("FITC pass %+v; want one tried and not kept", ch)
	}
	o.BoundFITC = 0
	want, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	sameRun(t, res, want)
	if res.Batches[len(res.Batches)-1].Pass != 1 {
		t.Error("training stopped after the first pass")
	}

	x, y, _ = noisy(t, 300, 2)
	o = boundOptions(20)
	o.MaxActive = 0
	res, err = Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if res.BoundFITC != nil {
		t.Errorf("FITC pass %+v without a budget", res.BoundFITC)
	}
	o.BoundFITC = 0
	if want, err = Train(context.Background(), x, y, &o); err != nil {
		t.Fatal(err)
	}
	sameRun(t, res, want)
}

// sameRun fails unless a and b are the same classifier with the same
// held-out latents, bit for bit.
func sameRun(t *testing.T, a, b *Result) {
	t.Helper()
	if a.Model.Sparse != nil || !slices.Equal(a.Model.Active, b.Model.Active) || !slices.Equal(a.Model.Kernel.Params(), b.Model.Kernel.Params()) ||
		!slices.Equal(a.Model.Post.Sites.Tau, b.Model.Post.Sites.Tau) || !slices.Equal(a.Model.Post.Sites.Nu, b.Model.Post.Sites.Nu) ||
		!slices.Equal(a.HeldOut, b.HeldOut) || len(a.Batches) != len(b.Batches) {
		t.Error("the classifier differs from the one trained without BoundFITC")
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
	xm := gatherRows(b.X, inducingSubset(o.Seed, len(b.Y), 10))
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
