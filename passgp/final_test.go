package passgp

import (
	"context"
	"testing"

	"github.com/passgp-fast/passgp-fast/ep"
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
