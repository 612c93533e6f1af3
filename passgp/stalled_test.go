package passgp

import (
	"context"
	"slices"
	"testing"
)

// TestSkipStalled: with Options.SkipStalled a batch skips its
// hyperparameter search only after a search in the same pass that left θ
// bit for bit unchanged, while |A| has grown by less than 20%, and only
// from SkipStalled active points on; without it every batch searches (the
// paper's schedule). The run stays deterministic across thread counts and
// a resumed run equals the uninterrupted one.
func TestSkipStalled(t *testing.T) {
	if testing.Short() {
		t.Skip("five trainings on 800 points")
	}
	x, y, _ := noisy(t, 800, 1)
	base := Options{Init: 50, Sub: 10, Passes: 3, Seed: 3, HypMaxEvals: 2, FinalHypEvals: 5}
	paper, err := Train(context.Background(), x, y, &base)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range paper.Batches {
		if b.HypEvals == 0 {
			t.Errorf("paper's schedule: batch %d skipped its search", i)
		}
	}

	o := base
	o.SkipStalled = 1
	var saved []byte
	o.Checkpoint = func(s *State) {
		if saved == nil && s.Stalled > 0 && s.Done > 1 {
			saved = encodeState(t, s)
		}
	}
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for i, b := range res.Batches {
		if b.HypEvals > 0 {
			continue
		}
		skipped++
		// The last search before it, in the same pass, left θ unchanged.
		j := i - 1
		for j >= 0 && res.Batches[j].HypEvals == 0 {
			j--
		}
		if j < 0 || res.Batches[j].Pass != b.Pass {
			t.Fatalf("batch %d skipped its search with no stalled search before it in pass %d", i, b.Pass)
		}
		// |A| before the stalled search, and before this batch.
		atStall, now := base.Init, res.Batches[i-1].Active
		if j > 0 {
			atStall = res.Batches[j-1].Active
		}
		if float64(now) >= 1.2*float64(atStall) {
			t.Errorf("batch %d skipped its search with |A| = %d, 20%% above the %d of the stalled search", i, now, atStall)
		}
		if j > 0 && !slices.Equal(res.Batches[j].Theta, res.Batches[j-1].Theta) {
			t.Errorf("batch %d skipped after batch %d, whose search moved θ %v -> %v", i, j, res.Batches[j-1].Theta, res.Batches[j].Theta)
		}
		if !slices.Equal(b.Theta, res.Batches[j].Theta) {
			t.Errorf("batch %d: θ %v changed without a search (was %v)", i, b.Theta, res.Batches[j].Theta)
		}
	}
	if skipped == 0 {
		t.Fatalf("no search was skipped; evaluations per batch: %v", evalsPerBatch(res.Batches))
	}

	// Above every |A|, the rule never applies: the paper's schedule.
	o2 := base
	o2.SkipStalled, _ = x.Dims()
	hi, err := Train(context.Background(), x, y, &o2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(evalsPerBatch(hi.Batches), evalsPerBatch(paper.Batches)) || !slices.Equal(hi.Model.Active, paper.Model.Active) {
		t.Error("SkipStalled above every |A| changed the run")
	}

	// One thread and two give the same run.
	o1 := o
	o1.Checkpoint, o1.Threads = nil, 1
	one, err := Train(context.Background(), x, y, &o1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one.Model.Active, res.Model.Active) || !slices.Equal(evalsPerBatch(one.Batches), evalsPerBatch(res.Batches)) {
		t.Error("1 and 2 threads differ")
	}

	// Resuming from a checkpoint taken after a stalled search.
	if saved == nil {
		t.Fatal("no checkpoint after a stalled search")
	}
	o.Checkpoint, o.Resume = nil, decodeState(t, saved)
	back, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Model.Active, res.Model.Active) || !slices.Equal(back.Model.Kernel.Params(), res.Model.Kernel.Params()) {
		t.Error("the resumed run differs from the uninterrupted one")
	}
}

func evalsPerBatch(bs []BatchStats) []int {
	out := make([]int, len(bs))
	for i, b := range bs {
		out[i] = b.HypEvals
	}
	return out
}
