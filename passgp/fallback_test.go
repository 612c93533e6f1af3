package passgp

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/synth"
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

// TestTrainFallsBackToBalance: on an imbalanced noisy task (about 13%
// positives), points far from the training data get the training
// labels' positive share as their calibrated probability and the
// majority class as their decision, while near the data the
// classifier still finds the minority class. Without the shares the far
// field got whatever the fit made of latent 0 near the boundary (0.65 on
// such a task, the minority class). θ is fixed: the evidence of se+bias
// on this task drives the length scale to ℓ² = 0.02, at which most
// training points lie far from every active input and the held-out
// error is the majority rate, so there is no minority class to find.
func TestTrainFallsBackToBalance(t *testing.T) {
	task := synth.Task{D: 6, Relevant: 3, Flip: 0.05, Priors: []float64{0.88, 0.12}}
	ds, err := synth.Dataset(task, 600, 3)
	if err != nil {
		t.Fatal(err)
	}
	x := ds.Dense()
	y := make([]float64, ds.N)
	pos := 0.0
	for i, v := range ds.Y {
		y[i] = v
		if v > 0 {
			pos++
		}
	}
	pos /= float64(ds.N)
	far := mat.NewDense(2, 6, nil)
	for j := range 6 {
		far.Set(0, j, 40)
		far.Set(1, j, -40)
	}
	for _, k := range []kernel.Kernel{kernel.SE{Var: 2, Len2: 4, Jitter: 1e-6}, kernel.SEBias{SE: kernel.SE{Var: 2, Len2: 4, Jitter: 1e-6}, Bias: 1}} {
		res, err := Train(context.Background(), x, y, &Options{Kernel: k, FixedTheta: true, Init: 50, Sub: 100, Passes: 2, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Calibration
		if c.Balance == nil || math.Abs(c.Balance[0]-pos) > 1e-15 {
			t.Fatalf("%s: balance %v, want the positive share %v", k.Name(), c.Balance, pos)
		}
		z, rho := make([]float64, 2), make([]float64, 2)
		res.Model.LatentShareTo(z, rho, far)
		p := mat.NewDense(2, 2, nil)
		c.ProbTo(p, mat.NewDense(2, 1, z), mat.NewDense(2, 1, rho))
		for i := range 2 {
			if d := c.Decide(z[i:i+1], rho[i:i+1]); d != 0 {
				t.Errorf("%s: far point %d decided as the minority class (p(+1) = %v)", k.Name(), i, p.At(i, 1))
			}
			// SE: the posterior there is the prior. SE+bias keeps the
			// constant's posterior, so the share is below 1.
			if _, ok := k.(kernel.SE); ok && (math.Abs(p.At(i, 1)-pos) > 1e-6 || rho[i] != 1) {
				t.Errorf("se: far point %d: p(+1) = %v, share %v; want the positive share %v and 1", i, p.At(i, 1), rho[i], pos)
			}
		}
		// Near the data the minority class is still found.
		zt, rt := make([]float64, ds.N), make([]float64, ds.N)
		res.Model.LatentShareTo(zt, rt, x)
		found := 0
		for i := range zt {
			if y[i] > 0 && c.Decide(zt[i:i+1], rt[i:i+1]) == 1 {
				found++
			}
		}
		if found < int(0.5*pos*float64(ds.N)) {
			t.Errorf("%s: %d of %v positive training points decided positive", k.Name(), found, pos*float64(ds.N))
		}
	}
}
