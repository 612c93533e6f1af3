package passgp

import (
	"context"
	"testing"

	"github.com/passgp-fast/passgp-fast/ep"
)

// The classifier's θ comes from a real optimisation on the final active
// set: with FinalHypEvals large, a further optimisation from the trained
// model gains (almost) nothing, whereas with FinalHypEvals = -1 (the
// batch cap, here 1 evaluation: no step at all) it does.
func TestFinalHypEvals(t *testing.T) {
	x, y := toy(200, 31)
	gain := func(final int) float64 {
		o := &Options{Init: 30, Sub: 4, Passes: 1, HypMaxEvals: 1, FinalHypEvals: final}
		res, err := Train(context.Background(), x, y, o)
		if err != nil {
			t.Fatal(err)
		}
		b := res.Model
		r, err := ep.Optimize(b.Kernel, b.X, b.Y, &b.Post.Sites, &ep.OptimizeOptions{MaxEvals: 200})
		if err != nil {
			t.Fatal(err)
		}
		return r.Post.LogZ - b.Post.LogZ
	}
	if g := gain(200); g > 1e-2 {
		t.Errorf("FinalHypEvals 200: a further optimisation gains %g in log Z", g)
	}
	if g := gain(-1); g < 1e-2 {
		t.Errorf("FinalHypEvals -1 (1 evaluation): further optimisation gains only %g; the test cannot tell the two apart", g)
	}
	c, err := resolve(&Options{HypMaxEvals: 5, FinalHypEvals: -1}, 2)
	if err != nil || c.FinalHypEvals != 5 {
		t.Errorf("FinalHypEvals -1 resolved to %d (err %v), want HypMaxEvals 5", c.FinalHypEvals, err)
	}
	if c, _ := resolve(&Options{}, 2); c.FinalHypEvals != DefaultFinalHypEvals {
		t.Errorf("FinalHypEvals 0 resolved to %d, want %d", c.FinalHypEvals, DefaultFinalHypEvals)
	}
}
