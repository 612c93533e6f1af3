package passgp

import (
	"context"
	"slices"
	"testing"
)

// TestBoundFITCResume: a run with Options.BoundFITC resumed from any of
// its checkpoints gives the uninterrupted run's classifier, held-out
// latents and FITC pass, whether θ is searched (the FITC posterior kept)
// or fixed (not kept).
func TestBoundFITCResume(t *testing.T) {
	for _, tc := range []struct {
		name  string
		o     Options
		after []int // resume after these batches (State.Done)
	}{
		{"searched", boundOptions(40), []int{4, 10}},
		{"fixed", driftedOptions(20), []int{4, 10, 13}},
	} {
		x, y, _ := noisy(t, 1500, 1)
		o := tc.o
		saved := map[int][]byte{}
		o.Checkpoint = func(s *State) {
			if slices.Contains(tc.after, s.Done) {
				saved[s.Done] = encodeState(t, s)
			}
		}
		full, err := Train(context.Background(), x, y, &o)
		if err != nil {
			t.Fatal(err)
		}
		if ch := full.BoundFITC; ch == nil || ch.Failed != "" || ch.Kept == (tc.name == "fixed") {
			t.Fatalf("%s: trial %+v", tc.name, ch)
		}
		for _, at := range tc.after {
			if saved[at] == nil {
				t.Fatalf("%s: no checkpoint after batch %d", tc.name, at)
			}
			st := decodeState(t, saved[at])
			ro := o
			ro.Checkpoint, ro.Resume = nil, st
			res, err := Train(context.Background(), x, y, &ro)
			if err != nil {
				t.Fatal(err)
			}
			a, b := full.Model, res.Model
			same := slices.Equal(a.Active, b.Active) && slices.Equal(a.Kernel.Params(), b.Kernel.Params()) &&
				slices.Equal(a.Post.Sites.Tau, b.Post.Sites.Tau) && (a.Sparse == nil) == (b.Sparse == nil) &&
				slices.Equal(full.HeldOut, res.HeldOut) && full.Calibration.A == res.Calibration.A
			if same && a.Sparse != nil {
				same = slices.Equal(a.Sparse.Beta, b.Sparse.Beta) && slices.Equal(a.Inducing, b.Inducing)
			}
			if !same {
				t.Errorf("%s: resumed after batch %d, the classifier differs from the uninterrupted run's", tc.name, at)
			}
			if ch := res.BoundFITC; ch == nil || !slices.Equal(ch.Theta, full.BoundFITC.Theta) || ch.Kept != full.BoundFITC.Kept || ch.FITCNLL != full.BoundFITC.FITCNLL {
				t.Errorf("%s: resumed after batch %d: FITC pass %+v, uninterrupted %+v", tc.name, at, ch, full.BoundFITC)
			}
		}
	}
}
