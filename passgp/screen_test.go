package passgp

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// The screened scorer gives every candidate the mean of full scoring, and
// the variance of full scoring wherever the rule could depend on it; a
// screened candidate's full predictive probability is at least p_inc,
// so the rule leaves it out either way. The toy posterior screens some
// candidates and solves for others, so both paths are exercised.
func TestScreenPredict(t *testing.T) {
	x, y := toy(40, 10)
	k := toyKernel()
	post, err := ep.Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	xs, ys := toy(900, 11)
	rows := make([]int, 0, 800)
	for i := 0; i < 900; i += 9 {
		rows = append(rows, i, i+2, i+3, i+5, i+6, i+8)
	}
	mean, vr := make([]float64, len(rows)), make([]float64, len(rows))
	(&runner{threads: 1}).predictRows(post, k, x, DenseRows(xs), rows, mean, vr, nil, gramNear{}, nil)
	kss := make([]float64, 900)
	k.DiagTo(kss, xs)
	for _, pinc := range []float64{0.6, 0.9} {
		sc := &screen{y: ys, pinc: pinc}
		for _, threads := range []int{1, 2} {
			t.Run(fmt.Sprintf("pinc=%v/threads=%d", pinc, threads), func(t *testing.T) {
				sm, sv := make([]float64, len(rows)), make([]float64, len(rows))
				withBLASThreads(1, func() {
					(&runner{threads: threads}).predictRows(post, k, x, DenseRows(xs), rows, sm, sv, nil, gramNear{}, sc)
				})
				screened := 0
				for c, i := range rows {
					if sm[c] != mean[c] {
						t.Fatalf("row %d: mean %v, full scoring %v", i, sm[c], mean[c])
					}
					if !sc.certain(ys[i], mean[c], kss[i]) {
						if math.Abs(sv[c]-vr[c]) > 1e-12*kss[i] {
							t.Errorf("row %d: variance %v, full scoring %v", i, sv[c], vr[c])
						}
						continue
					}
					screened++
					if sv[c] != kss[i] {
						t.Errorf("screened row %d: variance %v, want the prior's %v", i, sv[c], kss[i])
					}
					if q := predProb(ys[i], mean[c], vr[c]); q < pinc {
						t.Errorf("screened row %d: full q = %v < p_inc %v", i, q, pinc)
					}
				}
				t.Logf("%d of %d candidates screened", screened, len(rows))
				if screened == 0 || screened == len(rows) {
					t.Errorf("%d of %d candidates screened: want some of each", screened, len(rows))
				}
			})
		}
	}
}

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
