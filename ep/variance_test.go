package ep

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestVarByInverse: refresh's diag Σ from L⁻¹ (weak sites from their
// columns of V) equals varBySolve's, relative to the prior variance, for
// site precisions from zero to dominant; with more than half the sites weak
// refresh takes varBySolve's.
func TestVarByInverse(t *testing.T) {
	for _, tc := range []struct {
		n    int
		weak float64 // share of weak sites
		path bool    // varByInverse takes it
	}{
		{1, 0, true}, {60, 0, true}, {300, 0.2, true}, {300, 0.45, true}, {300, 0.7, false},
		{1400, 0.45, true}, // more weak sites than one panel (weakPanel)
	} {
		rng := rand.New(rand.NewPCG(uint64(tc.n), uint64(100*tc.weak)))
		x := mat.NewDense(tc.n, 3, nil)
		y := make([]float64, tc.n)
		for i := range tc.n {
			for j := range 3 {
				x.Set(i, j, rng.NormFloat64())
			}
			y[i] = float64(2*rng.IntN(2) - 1)
		}
		s := Sites{Tau: make([]float64, tc.n), Nu: make([]float64, tc.n)}
		for i := range s.Tau {
			switch u := rng.Float64(); {
			case u < tc.weak/4:
				s.Tau[i] = 0
			case u < tc.weak:
				s.Tau[i] = math.Pow(10, -8+6*rng.Float64())
			default:
				s.Tau[i] = math.Pow(10, -0.5+5*rng.Float64())
			}
			s.Nu[i] = s.Tau[i] * rng.NormFloat64()
		}
		k := kernel.SE{Var: 2, Len2: 1.5, Jitter: 1e-6}
		p, err := newKernelPosterior(k, x, y)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.setSites(&s); err != nil {
			t.Fatal(err)
		}
		w := getWork(tc.n)
		if !p.refresh(w, nil) {
			t.Fatal("refresh failed")
		}
		got := append([]float64(nil), p.Var...)
		if ok := p.fewWeak(w); ok != tc.path || w.inverse != tc.path {
			t.Errorf("n=%d weak %.2f: fewWeak = %v, refresh by the inverse %v, want %v", tc.n, tc.weak, ok, w.inverse, tc.path)
		}
		if !p.varBySolve(w) {
			t.Fatal("varBySolve stopped")
		}
		var worst float64
		for i, v := range p.Var {
			worst = math.Max(worst, math.Abs(got[i]-v)/p.k[i*tc.n+i])
		}
		if worst > 1e-11 {
			t.Errorf("n=%d weak %.2f: diag Σ differs from varBySolve's by %.3g of the prior variance", tc.n, tc.weak, worst)
		}
		t.Logf("n=%d weak %.2f: %d weak sites, largest difference %.3g", tc.n, tc.weak, len(w.weak), worst)
		if tc.n == 1400 && len(w.weak) <= weakPanel {
			t.Errorf("n=%d: %d weak sites, not more than one panel", tc.n, len(w.weak))
		}
		putWork(w)
	}
}
