package passgp

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/synth"
)

// imbalanced is a binary task in 4 dimensions with 10% positives, class
// means sep apart from the origin and label-flip rate flip.
func imbalanced(t *testing.T, n int, seed uint64, sep, flip float64) (*mat.Dense, []float64) {
	t.Helper()
	task := synth.Task{D: 4, Relevant: 4, Sep: sep, Flip: flip, Priors: []float64{0.9, 0.1}}
	g, err := synth.NewGenerator(task, seed)
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(n, 4, nil)
	y := make([]float64, n)
	for i := range n {
		_, o := g.Next(x.RawRowView(i))
		y[i] = task.Label(o)
	}
	return x, y
}

// TestFITCFallback: fPASS-GP with 20 active points on an imbalanced task
// decides the larger class on its held-out points (error 13.2%, the
// majority rate); with FITCFallback the FITC pass then runs over all
// points and the classifier predicts from it, on the same active set,
// with held-out decisions well below the majority rate. A classifier that
// is better than the majority rule is left as it was, bit for bit.
func TestFITCFallback(t *testing.T) {
	x, y := imbalanced(t, 1500, 1, 2, 0.05)
	o := Options{Method: FPASSGP, M: 20, Init: 20, Sub: 5, PExc: 0.1, Seed: 1, Threads: 1}
	plain, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if !noBetterThanMajority(plain, y) || plain.FITCFallback || plain.Model.Sparse != nil {
		t.Fatalf("without the fallback: held-out error %v, majority %v, fallback %v; want a classifier no better than the majority rule",
			plain.HeldOutError, plain.MajorityRate, plain.FITCFallback)
	}
	o.FITCFallback = true
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if !res.FITCFallback || res.Model.Sparse == nil || noBetterThanMajority(res, y) || !(res.HeldOutError < 0.75*res.MajorityRate) {
		t.Errorf("with the fallback: %v, FITC %v, held-out error %v, majority %v", res.FITCFallback, res.Model.Sparse != nil,
			res.HeldOutError, res.MajorityRate)
	}
	if !slices.Equal(res.Model.Active, plain.Model.Active) {
		t.Error("the fallback changed the active set")
	}
	z, _, _, err := heldOutLatents(context.Background(), &runner{threads: 1}, res.Model, x, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(z, res.HeldOut) {
		t.Error("held-out latents are not the FITC posterior's")
	}

	// A random active set of 20 is better than the majority rule here.
	o = Options{Method: Random, M: 20, Init: 20, Sub: 5, Seed: 1, Threads: 1, FITCFallback: true}
	res, err = Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	o.FITCFallback = false
	want, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if res.FITCFallback || res.Model.Sparse != nil || !slices.Equal(res.HeldOut, want.HeldOut) ||
		!slices.Equal(res.Model.Kernel.Params(), want.Model.Kernel.Params()) {
		t.Errorf("a classifier better than the majority rule (held-out error %v, majority %v) was changed", res.HeldOutError, res.MajorityRate)
	}
}
