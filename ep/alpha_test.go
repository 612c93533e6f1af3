package ep

import (
	"math"
	"testing"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestRepresenterWeights: at an EP fixed point the representer weights α
// (m* = k*ᵀα) equal the log derivative of each point's cavity predictive
// probability, α_n = y_n N(z_n)/(Φ(z_n)√(1+v_n)) with z_n = y_n m_n/√(1+v_n)
// for the cavity marginal (m_n, v_n) (paper Section 4). A wrong α, site
// or cavity breaks the identity.
func TestRepresenterWeights(t *testing.T) {
	x, y := blobs(50, 16)
	k := kernel.SE{Var: 2, Len2: 0.5, Jitter: 1e-4}
	p, err := Infer(k, x, y, nil, &Options{Tol: 1e-12, MaxSweeps: 1000})
	if err != nil {
		t.Fatal(err)
	}
	m, v := make([]float64, 50), make([]float64, 50)
	p.CavityTo(m, v)
	for i := range y {
		s := math.Sqrt(1 + v[i])
		want := y[i] * InvMills(y[i]*m[i]/s) / s
		if d := math.Abs(p.Alpha[i] - want); d > 1e-5 {
			t.Errorf("point %d: α = %v, cavity weight %v", i, p.Alpha[i], want)
		}
	}
}
