package passgp

import (
	"context"
	"slices"
	"testing"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// The classifier's θ comes from a real optimisation on the final active
// set (finalHypEvals, not the batches' hypMaxEvals): a further
// optimisation from the trained model gains less than 1e-2 in log Z_EP.
func TestFinalHypEvals(t *testing.T) {
	x, y := toy(200, 31)
	res, err := Train(context.Background(), x, y, &Options{Init: 30, Sub: 4, Passes: 1})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Model
	r, err := ep.Optimize(b.Kernel, b.X, b.Y, &b.Post.Sites, &ep.OptimizeOptions{MaxEvals: 200})
	if err != nil {
		t.Fatal(err)
	}
	if g := r.Post.LogZ - b.Post.LogZ; g > 1e-2 {
		t.Errorf("a further optimisation gains %g in log Z", g)
	}
}

// searched: a batch skips its θ search where no batch changed A since the
// last one that searched.
func TestSearched(t *testing.T) {
	s := func(in, del, evals int) BatchStats { return BatchStats{Included: in, Deleted: del, HypEvals: evals} }
	for _, c := range []struct {
		name  string
		stats []BatchStats
		want  bool
	}{
		{"no batch", nil, false},
		{"searched, A changed", []BatchStats{s(3, 1, 3)}, false},
		{"searched, A unchanged", []BatchStats{s(0, 0, 3)}, true},
		{"unchanged since the search", []BatchStats{s(2, 0, 9), s(0, 0, 3), s(0, 0, 0)}, true},
		{"changed after the search", []BatchStats{s(0, 0, 3), s(0, 1, 0)}, false},
		{"never searched", []BatchStats{s(0, 0, 0), s(0, 0, 0)}, false},
	} {
		if got := searched(c.stats); got != c.want {
			t.Errorf("%s: searched = %v, want %v", c.name, got, c.want)
		}
	}
}

// keepSelection: a final θ under which the inactive points are no longer
// explained (a near-diagonal kernel, every point at its prior) is replaced
// by the last batch's θ, with the held-out latents recomputed; the final
// θ of an ordinary run stays.
func TestKeepSelection(t *testing.T) {
	ctx := context.Background()
	x, y := toy(600, 5)
	o := &Options{Init: 40, Sub: 4, Kernel: kernel.SEBias{SE: kernel.SE{Var: 4, Len2: 0.5, Jitter: 0.01}, Bias: 1}}
	c, err := checkInput(ctx, DenseRows(x), y, o)
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(1)
	res, err := train(ctx, DenseRows(x), y, &c, r, "")
	if err != nil {
		t.Fatal(err)
	}
	last := res.Batches[len(res.Batches)-1].Theta
	final := res.Model.Kernel.Params()
	if slices.Equal(final, last) {
		t.Fatalf("the final search did not move θ from %v: the test checks nothing", last)
	}
	good := res.HeldOutError
	// The same classifier at a degenerate θ.
	bad := slices.Clone(final)
	bad[0], bad[1] = 1e4, 1e-6
	if res.Model, err = activeAt(ctx, res.Model, res.Model.Kernel.WithParams(bad), c.finalEPOptions()); err != nil {
		t.Fatal(err)
	}
	if err := setHeldOut(ctx, r, res, DenseRows(x), y, nil, nil); err != nil {
		t.Fatal(err)
	}
	if res.HeldOutError < 0.2 {
		t.Fatalf("held-out error %.3f at θ %v: not degenerate, the test checks nothing", res.HeldOutError, bad)
	}
	if res, err = keepSelection(ctx, &c, r, res, DenseRows(x), y, nil); err != nil {
		t.Fatal(err)
	}
	if got := res.Model.Kernel.Params(); !slices.Equal(got, last) {
		t.Errorf("after keepSelection θ = %v, want the last batch's %v", got, last)
	}
	if res.HeldOutError > good+0.02 {
		t.Errorf("held-out error %.3f after keepSelection, %.3f at the final θ", res.HeldOutError, good)
	}
	// An ordinary run keeps its final θ.
	res2, err := train(ctx, DenseRows(x), y, &c, r, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := res2.Model.Kernel.Params(); !slices.Equal(got, final) {
		t.Errorf("ordinary run: θ = %v, want the final search's %v", got, final)
	}
}
