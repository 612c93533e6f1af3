package passgp

import (
	"context"
	"slices"
	"testing"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestFinalSubset: with Options.FinalSubset the last optimisation starts
// on a subset of the active set and finishes on all of it. The final θ's
// evidence on the active set is close to that of the search on the whole
// active set throughout, the run is the same for 1 and 2 threads, an
// active set smaller than 2·FinalSubset takes no detour (bit for bit the
// plain run), and a negative FinalSubset is refused.
func TestFinalSubset(t *testing.T) {
	x, y, _ := noisy(t, 1200, 4)
	opts := func(sub, threads int) *Options {
		return &Options{Kernel: kernel.SE{Var: 2, Len2: 4, Jitter: 1e-4}, Init: 100, Sub: 6, Passes: 1, Seed: 2,
			HypMaxEvals: 3, FinalSubset: sub, Threads: threads}
	}
	plain, err := Train(context.Background(), x, y, opts(0, 2))
	if err != nil {
		t.Fatal(err)
	}
	m := len(plain.Model.Active)
	if m < 200 {
		t.Fatalf("|A| = %d: the task should give a few hundred active points", m)
	}
	sub := m / 3
	var a, b *Result
	withBLASThreads(1, func() {
		if a, err = Train(context.Background(), x, y, opts(sub, 1)); err != nil {
			t.Fatal(err)
		}
		if b, err = Train(context.Background(), x, y, opts(sub, 2)); err != nil {
			t.Fatal(err)
		}
	})
	if !slices.Equal(a.Model.Kernel.Params(), b.Model.Kernel.Params()) || !slices.Equal(a.HeldOut, b.HeldOut) {
		t.Errorf("1 and 2 threads differ: θ %v and %v", a.Model.Kernel.Params(), b.Model.Kernel.Params())
	}
	if slices.Equal(a.Model.Kernel.Params(), plain.Model.Kernel.Params()) {
		t.Errorf("FinalSubset = %d of |A| = %d changed nothing", sub, m)
	}
	lp, la := plain.Model.Post.LogZ, a.Model.Post.LogZ
	if !(la > lp-0.5) {
		t.Errorf("final log Z %v with the subset start, %v without", la, lp)
	}
	t.Logf("|A| %d, subset %d: log Z %v (θ %v) against %v (θ %v)", m, sub, la, a.Model.Kernel.Params(), lp, plain.Model.Kernel.Params())
	// 2·FinalSubset > |A|: no detour.
	big, err := Train(context.Background(), x, y, opts(m/2+1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(big.Model.Kernel.Params(), plain.Model.Kernel.Params()) || !slices.Equal(big.HeldOut, plain.HeldOut) {
		t.Error("FinalSubset above |A|/2 changed the run")
	}
	if _, err := Train(context.Background(), x, y, opts(-1, 1)); err == nil {
		t.Error("FinalSubset = -1 accepted")
	}
}
