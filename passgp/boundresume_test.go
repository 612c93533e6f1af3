package passgp

import (
	"context"
	"slices"
	"testing"
)

// TestBoundFITCResume: a run with Options.BoundFITC resumed from any of
// its checkpoints gives the uninterrupted run's classifier, held-out
// latents and trial: from the end of the binding pass (the checkpoint an
// uninterrupted run writes just before its trial) the trial runs as
// there, and after a trial that was not kept (State.Bound) training goes
// on without a second trial or a pass at the end.
func TestBoundFITCResume(t *testing.T) {
	for _, tc := range []struct {
		name  string
		o     Options
		kept  bool
		after []int // resume after these batches (State.Done)
	}{
		{"kept", boundOptions(40), true, []int{4, 10}},
		{"not kept", driftedOptions(20), false, []int{4, 10, 13}},
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
		if ch := full.BoundFITC; ch == nil || ch.Kept != tc.kept {
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
			if ch := res.BoundFITC; ch == nil || ch.Kept != tc.kept || ch.FITCNLL != full.BoundFITC.FITCNLL {
				t.Errorf("%s: resumed after batch %d: trial %+v, uninterrupted %+v", tc.name, at, ch, full.BoundFITC)
			}
		}
	}
}
