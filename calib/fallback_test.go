package calib

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// TestCalibrationFarFieldIsBalance: where the posterior is the prior
// (share 1, latent 0), the calibrated probabilities are the class
// balance exactly, label-noise share included, for binary and multi-class
// maps; a class rarer than ε/C gets the mixture's floor ε/C. With share 0
// the map is the one of the latent alone, as in files before version 6.
func TestCalibrationFarFieldIsBalance(t *testing.T) {
	for _, c := range []*Calibration{
		{A: 3, B: []float64{1.2}, Eps: 0.09, Balance: []float64{0.13}},
		{A: 3, B: []float64{-0.4}, Eps: 0, Balance: []float64{0.9}},
		{A: 2, B: []float64{0.5, -0.2, 0.3}, Eps: 0.06, Balance: []float64{0.6, 0.25, 0.15}},
		{A: 2, B: []float64{0.5, -0.2, 0.3, 1}, Eps: 0.05, Balance: []float64{0.6, 0.25, 0.145, 0.005}},
	} {
		k := len(c.B)
		nc := max(k, 2)
		p := mat.NewDense(1, nc, nil)
		c.ProbTo(p, mat.NewDense(1, k, nil), ones(1, k))
		want := c.Balance
		if k == 1 {
			want = []float64{1 - c.Balance[0], c.Balance[0]}
		}
		// A class rarer than ε/C (the last one of the third map) is
		// floored; the others keep their shares up to the renormalisation
		// this costs (the floor's mass, at most ε/C).
		floored := 0.0
		for _, w := range want {
			if fl := c.Eps / float64(nc); w < fl {
				floored += fl - w
			}
		}
		for j, w := range want {
			got := p.At(0, j)
			if fl := c.Eps / float64(nc); w < fl {
				if math.Abs(got-fl) > 1e-5 {
					t.Errorf("%+v: far-field p_%d = %v, want the floor %v", c, j, got, fl)
				}
				continue
			}
			if math.Abs(got-w) > 1e-12+floored {
				t.Errorf("%+v: far-field p_%d = %v, want the class share %v", c, j, got, w)
			}
		}
		if d := c.Decide(make([]float64, k), ones(1, k).RawRowView(0)); d != floats.MaxIdx(p.RawRowView(0)) {
			t.Errorf("%+v: far-field decision %d, most probable %d", c, d, floats.MaxIdx(p.RawRowView(0)))
		}
		// Share 0: the balance plays no part.
		plain := *c
		plain.Balance = nil
		z := mat.NewDense(1, k, nil)
		for j := range k {
			z.Set(0, j, 0.3*float64(j+1))
		}
		p0, q0 := mat.NewDense(1, nc, nil), mat.NewDense(1, nc, nil)
		c.ProbTo(p0, z, mat.NewDense(1, k, nil))
		plain.ProbTo(q0, z, nil)
		if !mat.Equal(p0, q0) {
			t.Errorf("%+v: share 0 gives %v, the latent-only map %v", c, p0.RawRowView(0), q0.RawRowView(0))
		}
	}
}

func ones(n, k int) *mat.Dense {
	m := mat.NewDense(n, k, nil)
	for i := range n {
		for j := range k {
			m.Set(i, j, 1)
		}
	}
	return m
}
