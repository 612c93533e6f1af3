package passgp

import (
	"context"
	"math"
	"testing"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// ivmSiteEvidence's gradient matches central finite differences in log θ,
// and ivmOptimize does not decrease the evidence.
func TestIVMSiteEvidence(t *testing.T) {
	x, y := toy(80, 41)
	k := kernel.SELin{SE: kernel.SE{Var: 2, Len2: 0.7, Jitter: 0.01}, Lin: 0.3}
	st, _ := ivmSelect(context.Background(), k, x, y, 25)
	xa := gatherRows(x, st.sel)
	th := k.Params()
	g := make([]float64, len(th))
	lz, ok := ivmSiteEvidence(k, xa, st.tau, st.nu, g)
	if !ok {
		t.Fatal("C not positive definite")
	}
	const h = 1e-5
	for j := range th {
		f := func(s float64) float64 {
			p := append([]float64(nil), th...)
			p[j] *= math.Exp(s)
			v, _ := ivmSiteEvidence(k.WithParams(p), xa, st.tau, st.nu, nil)
			return v
		}
		fd := (f(h) - f(-h)) / (2 * h)
		if math.Abs(fd-g[j]) > 1e-5*math.Max(1, math.Abs(fd)) {
			t.Errorf("∂/∂log θ_%d: analytic %v, finite difference %v", j, g[j], fd)
		}
	}
	k2, _, evals := ivmOptimize(context.Background(), k, xa, st.tau, st.nu, nil, nil, nil, 50)
	lz2, _ := ivmSiteEvidence(k2, xa, st.tau, st.nu, nil)
	if evals == 0 || lz2 < lz-1e-12 {
		t.Errorf("ivmOptimize: log Z %v -> %v in %d evaluations", lz, lz2, evals)
	}
	// Fixed components stay.
	k3, _, _ := ivmOptimize(context.Background(), k, xa, st.tau, st.nu, []bool{false, true, false, true}, nil, nil, 20)
	if p := k3.Params(); p[1] != th[1] || p[3] != th[3] {
		t.Errorf("fixed t2, t4 moved: %v -> %v", th, p)
	}
}
