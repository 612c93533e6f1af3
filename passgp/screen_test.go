package passgp

import (
	"context"
	"slices"
	"testing"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// A PASS-GP run that screens its candidates is the run that
// scores every candidate fully: the same active sets and batch counts, and
// sites, θ, log Z and calibration equal to pathTol (the two paths call
// BLAS with different shapes), with θ learned and fixed, with and without
// the budget.
func TestScreenSameRun(t *testing.T) {
	x, y, _ := noisy(t, 900, 5)
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"paper", Options{Init: 80, Sub: 4, Passes: 3}},
		{"budget", Options{Init: 80, Sub: 4, MaxActive: 150}},
		{"fixed", Options{Init: 80, Sub: 6, FixedTheta: true, Kernel: kernel.SE{Var: 4, Len2: 8, Jitter: 1e-4}, PInc: 0.9}},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := func(screening bool) *Result {
				defer func(old bool) { screenScores = old }(screenScores)
				screenScores = screening
				o := c.o
				o.Seed = 2
				res, err := Train(context.Background(), x, y, &o)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			full, scr := run(false), run(true)
			a, b := full.Model, scr.Model
			if !slices.Equal(a.Active, b.Active) || !allClose(a.Post.Sites.Tau, b.Post.Sites.Tau) ||
				!allClose(a.Post.Sites.Nu, b.Post.Sites.Nu) || !allClose(a.Kernel.Params(), b.Kernel.Params()) {
				t.Errorf("screening changed the classifier: |A| %d against %d", len(b.Active), len(a.Active))
			}
			if len(full.Batches) != len(scr.Batches) {
				t.Fatalf("%d batches against %d", len(scr.Batches), len(full.Batches))
			}
			for i, bf := range full.Batches {
				bs := scr.Batches[i]
				if bf.Active != bs.Active || bf.Included != bs.Included || bf.Deleted != bs.Deleted ||
					!closeTo(bf.LogZ, bs.LogZ) {
					t.Errorf("batch %d: %+v against %+v", i, bs, bf)
				}
			}
			fc, sc := full.Calibration, scr.Calibration
			if !allClose(full.HeldOut, scr.HeldOut) || !allClose(full.HeldOutShare, scr.HeldOutShare) ||
				!closeTo(fc.A, sc.A) || !closeTo(fc.Eps, sc.Eps) || !allClose(fc.B, sc.B) {
				t.Errorf("screening changed the held-out latents or the calibration")
			}
		})
	}
}
