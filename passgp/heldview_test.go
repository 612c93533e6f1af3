package passgp

import (
	"context"
	"slices"
	"testing"
)

// withHeldOutMax runs f with HeldOutMax lowered to m.
func withHeldOutMax(m int, f func()) {
	old := heldOutMax
	heldOutMax = m
	defer func() { heldOutMax = old }()
	f()
}

// TestHeldOutSample: beyond HeldOutMax points the held-out latents are
// those of a seeded sample of the training points (HeldOutRows), each the
// one the run on all points computes for that point; binary, with the
// budget binding (the FITC trial then works on the sample) and
// one-vs-rest.
func TestHeldOutSample(t *testing.T) {
	x, y := toy(400, 4)
	ctx := context.Background()
	o := Options{Sub: 4, Passes: 2, Threads: 1, Seed: 3}
	full, err := Train(ctx, x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	var sub, bound *Result
	var want []int
	withHeldOutMax(150, func() {
		want = HeldOutRows(3, 400)
		if sub, err = Train(ctx, x, y, &o); err != nil {
			t.Fatal(err)
		}
		ob := o
		ob.MaxActive, ob.BoundFITC = 30, 15
		if bound, err = Train(ctx, x, y, &ob); err != nil {
			t.Fatal(err)
		}
	})
	rows := sub.HeldOutRows
	if len(rows) != 150 || !slices.IsSorted(rows) || len(sub.HeldOut) != 150 || !slices.Equal(rows, want) {
		t.Fatalf("held-out rows %v (%d latents), want 150 sorted rows", truncInts(rows), len(sub.HeldOut))
	}
	if full.HeldOutRows != nil || len(full.HeldOut) != 400 {
		t.Fatalf("under the limit: rows %v, %d latents", truncInts(full.HeldOutRows), len(full.HeldOut))
	}
	for k, i := range rows {
		if !closeTo(sub.HeldOut[k], full.HeldOut[i]) || !closeTo(sub.HeldOutShare[k], full.HeldOutShare[i]) {
			t.Fatalf("row %d: held-out (%v, %v), all points' run (%v, %v)", i, sub.HeldOut[k], sub.HeldOutShare[k], full.HeldOut[i], full.HeldOutShare[i])
		}
	}
	if bound.BoundFITC == nil || len(bound.HeldOut) != 150 || !slices.Equal(bound.HeldOutRows, rows) {
		t.Fatalf("budget run: FITC pass %v, %d latents", bound.BoundFITC, len(bound.HeldOut))
	}
	if slices.Contains(bound.Model.Active, -1) {
		t.Fatal("the model's active set was renumbered")
	}

	xm, labels := blobs(300, 3, 5)
	var mr *MultiResult
	withHeldOutMax(100, func() {
		want = HeldOutRows(0, 300)
		if mr, err = TrainMulti(ctx, xm, labels, &Options{Sub: 3, Passes: 1, Threads: 1}); err != nil {
			t.Fatal(err)
		}
	})
	for _, r := range mr.PerClass {
		if len(r.HeldOut) != 100 || !slices.Equal(r.HeldOutRows, want) {
			t.Fatalf("one-vs-rest: %d latents on rows %v", len(r.HeldOut), truncInts(r.HeldOutRows))
		}
		// The multi-class calibration is the classifiers' one.
		if r.Calibration != nil {
			t.Errorf("one-vs-rest classifier with its own calibration %+v", r.Calibration)
		}
	}
	if mr.Calibration == nil {
		t.Fatal("no multi-class calibration")
	}
}
