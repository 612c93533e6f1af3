package ep

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestLogZCavityGuard: site precisions so large that the cavity precision
// 1/v_i − τ̃_i rounds to zero or below (it is positive in exact
// arithmetic) give a finite log Z_EP and cavity probabilities in [0, 1]:
// a NaN must never reach PASS-GP's deletion rule or fPASS-GP's sort.
func TestLogZCavityGuard(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{0, 1, 2.5})
	y := []float64{1, -1, 1}
	k := kernel.SE{Var: 1, Len2: 1, Jitter: 1e-6}
	hit, negVar := 0, 0
	for e := 10; e <= 20; e++ {
		tau := math.Pow(10, float64(e))
		for c, f := range []float64{1, 1.3, 2.7, 7.1, 1, 1.3, 2.7, 7.1} {
			// The last four have two weak sites of three, so that refresh
			// takes diag Σ from varBySolve, where the marginal variance
			// itself rounds to <= 0; varByInverse keeps it positive.
			other := []float64{1, 0.5}
			if c >= 4 {
				other = []float64{0.01, 0.02}
			}
			s := Sites{Tau: []float64{tau * f, other[0], other[1]}, Nu: []float64{0.3 * tau * f, -0.4, 0.2}}
			p, err := FromSites(k, x, y, s)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case !(p.Var[0] > 0):
				negVar++ // the marginal variance itself rounded to <= 0
			case 1/p.Var[0]-p.Sites.Tau[0] <= 0:
				hit++
			}
			if math.IsNaN(p.LogZ) || math.IsInf(p.LogZ, 0) {
				t.Errorf("τ̃ = %g: log Z = %v", tau*f, p.LogZ)
			}
			prob := make([]float64, 3)
			p.CavityProbTo(prob)
			for i, q := range prob {
				if !(q >= 0 && q <= 1) {
					t.Errorf("τ̃ = %g: cavity probability %d = %v", tau*f, i, q)
				}
			}
		}
	}
	if hit == 0 || negVar == 0 {
		t.Fatalf("cavity precision <= 0 in %d cases, marginal variance <= 0 in %d: the test must reach both guards", hit, negVar)
	}
}
