package passgp

import (
	"context"
	"slices"
	"testing"
)

// TestFrozenADFSites: after the budget binds, every point a batch includes
// starts at an ADF site (adfSite), and
// the batches' EP runs take fewer sweeps than from zero sites; until then
// the run is bit for bit the one without ADF sites (θ searches start from
// zero sites for new points).
func TestFrozenADFSites(t *testing.T) {
	x, y, _ := noisy(t, 1500, 1)
	run := func(adf bool) (*Result, []State) {
		defer func(old bool) { adfSites = old }(adfSites)
		adfSites = adf
		var states []State
		o := Options{Init: 50, MaxActive: 150, Sub: 30, Passes: 1, Seed: 3, Threads: 1,
			Checkpoint: func(s *State) { states = append(states, cloneState(s)) }}
		res, err := Train(context.Background(), x, y, &o)
		if err != nil {
			t.Fatal(err)
		}
		return res, states
	}
	res, states := run(true)
	frozenAt, adf := -1, 0
	for b := 1; b < len(states); b++ {
		prev, cur := states[b-1], states[b]
		if cur.Frozen && frozenAt < 0 {
			frozenAt = b
		}
		kept := 0
		for _, a := range cur.Active {
			if slices.Contains(prev.Active, a) {
				kept++
			}
		}
		for j, a := range cur.Active[kept:] { // included points come last
			j += kept
			// Unfrozen: zero sites. Frozen: an ADF site, τ̃ >= 0 with
			// ν̃ of the label's sign or 0 (adfSite).
			tau, nu := cur.Tau[j], cur.Nu[j]
			if !cur.Frozen && (tau != 0 || nu != 0) || cur.Frozen && (!(tau >= 0) || nu*y[a] < 0) {
				t.Fatalf("batch %d (frozen %v): included point %d starts at site (%v, %v)", b, cur.Frozen, a, tau, nu)
			}
			if tau > 0 {
				adf++
			}
		}
	}
	if frozenAt < 1 || frozenAt > len(states)-5 || adf < 20 {
		t.Fatalf("the budget bound at batch %d of %d, %d ADF sites: the test needs a budget that binds early", frozenAt, len(states), adf)
	}

	plain, _ := run(false)
	sweeps := func(r *Result) (n int) {
		for _, b := range r.Batches[frozenAt+1:] {
			n += b.EPSweeps
			if b.NotConverged {
				t.Errorf("batch %d: EP did not converge", b.Batch)
			}
		}
		return n
	}
	for i, b := range plain.Batches[:frozenAt+1] {
		a := res.Batches[i]
		if a.LogZ != b.LogZ || a.Active != b.Active || !slices.Equal(a.Theta, b.Theta) {
			t.Fatalf("batch %d, before the budget bound: log Z %v, |A| %d, θ %v with ADF sites; %v, %d, %v without", i, a.LogZ, a.Active, a.Theta, b.LogZ, b.Active, b.Theta)
		}
	}
	if s, p := sweeps(res), sweeps(plain); !(s < p) {
		t.Errorf("EP sweeps after the budget bound: %d with ADF sites, %d without", s, p)
	} else {
		t.Logf("EP sweeps in the %d batches after the budget bound: %d with ADF sites, %d without", len(res.Batches)-frozenAt-1, s, p)
	}
}
