package passgp

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/synth"
)

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
