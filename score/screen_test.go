package score

import (
	"fmt"
	"math"
	"testing"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/internal/testenv"
)

// The screened scorer gives every candidate the mean of full scoring, and
// the variance of full scoring wherever the rule could depend on it; a
// screened candidate's full predictive probability is at least p_inc,
// so the rule leaves it out either way. The toy posterior screens some
// candidates and solves for others, so both paths are exercised.
func TestScreenPredict(t *testing.T) {
	x, y := testenv.Toy(40, 10)
	k := toyKernel()
	post, err := ep.Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	xs, ys := testenv.Toy(900, 11)
	rows := make([]int, 0, 800)
	for i := 0; i < 900; i += 9 {
		rows = append(rows, i, i+2, i+3, i+5, i+6, i+8)
	}
	mean, vr := make([]float64, len(rows)), make([]float64, len(rows))
	(&Runner{Threads: 1}).Predict(post, k, x, denseRows{xs}, rows, mean, vr, nil)
	kss := make([]float64, 900)
	k.DiagTo(kss, xs)
	for _, pinc := range []float64{0.6, 0.9} {
		sc := &Screen{Y: ys, PInc: pinc}
		for _, threads := range []int{1, 2} {
			t.Run(fmt.Sprintf("pinc=%v/threads=%d", pinc, threads), func(t *testing.T) {
				sm, sv := make([]float64, len(rows)), make([]float64, len(rows))
				withBLASThreads(1, func() {
					(&Runner{Threads: threads}).Predict(post, k, x, denseRows{xs}, rows, sm, sv, sc)
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
					if q := Prob(ys[i], mean[c], vr[c]); q < pinc {
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
