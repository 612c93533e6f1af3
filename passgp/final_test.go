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
