package passgp

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
)

// TestCalibrationFromTrainingDataOnly: TrainMulti's calibration is the fit
// on the training points' held-out latents and nothing else, and seeded
// runs give the same calibration for 1 and 2 threads.
func TestCalibrationFromTrainingDataOnly(t *testing.T) {
	x, y := wide(360, 8, 31)
	labels := make([]float64, len(y))
	for i := range labels {
		labels[i] = float64(i % 3)
		if y[i] > 0 && i%3 == 0 {
			labels[i] = 3
		}
	}
	run := func(th int) *MultiResult {
		mr, err := TrainMulti(context.Background(), x, labels, &Options{Init: 30, Sub: 3, Passes: 1, Seed: 6, Threads: th})
		if err != nil {
			t.Fatal(err)
		}
		return mr
	}
	var a, b *MultiResult
	withBLASThreads(1, func() { a, b = run(1), run(2) })
	if a.Calibration.A != b.Calibration.A || !slices.Equal(a.Calibration.B, b.Calibration.B) || a.Calibration.Eps != b.Calibration.Eps {
		t.Errorf("calibration differs between 1 and 2 threads: %+v %+v", a.Calibration, b.Calibration)
	}
	n := len(labels)
	z, rho := mat.NewDense(n, 4, nil), mat.NewDense(n, 4, nil)
	for j, r := range a.PerClass {
		if len(r.HeldOut) != n || len(r.HeldOutShare) != n {
			t.Fatalf("class %d: %d held-out latents and %d shares for %d points", j, len(r.HeldOut), len(r.HeldOutShare), n)
		}
		z.SetCol(j, r.HeldOut)
		rho.SetCol(j, r.HeldOutShare)
	}
	truth := make([]int, n)
	counts := make([]float64, 4)
	for i, l := range labels {
		truth[i], _ = slices.BinarySearch(a.Model.Classes, l)
		counts[truth[i]]++
	}
	c, err := calib.Fit(z, rho, truth)
	if err != nil {
		t.Fatal(err)
	}
	if c.A != a.Calibration.A || !slices.Equal(c.B, a.Calibration.B) || c.Eps != a.Calibration.Eps || !slices.Equal(c.Balance, a.Calibration.Balance) {
		t.Errorf("TrainMulti's calibration %+v is not the fit on the held-out latents %+v", a.Calibration, c)
	}
	for j, v := range counts {
		if want := v / float64(n); math.Abs(c.Balance[j]-want) > 1e-15 {
			t.Errorf("balance of class %d: %v, want the training share %v", j, c.Balance[j], want)
		}
	}
	// The held-out latent of an active point is its cavity's, not the
	// posterior's that saw its label.
	bin := a.Model.Models[0]
	cm, cv := make([]float64, len(bin.Y)), make([]float64, len(bin.Y))
	bin.Post.CavityTo(cm, cv)
	kd := make([]float64, n)
	bin.Kernel.DiagTo(kd, x)
	for k, i := range bin.Active {
		if w := cm[k] / math.Sqrt(1+cv[k]); a.PerClass[0].HeldOut[i] != w {
			t.Fatalf("active point %d: held-out %v, cavity %v", i, a.PerClass[0].HeldOut[i], w)
		}
		if w := cv[k] / kd[i]; math.Abs(a.PerClass[0].HeldOutShare[i]-w) > 1e-12 || !(w > 0 && w <= 1) {
			t.Fatalf("active point %d: share %v, cavity variance over prior %v", i, a.PerClass[0].HeldOutShare[i], w)
		}
	}
}

// TestFitBinaryRefit: fitted on a trained classifier's stored
// held-out latents it is the calibration Train made; bad lengths are an
// error.
func TestFitBinaryRefit(t *testing.T) {
	x, y := toy(200, 3)
	res, err := Train(context.Background(), x, y, &Options{Init: 20, Sub: 3, Kernel: toyKernel(), FixedTheta: true, Seed: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	c, err := calib.FitBinary(res.HeldOut, res.HeldOutShare, y)
	if err != nil || !reflect.DeepEqual(c, res.Calibration) {
		t.Errorf("refit %+v (%v), Train's %+v", c, err, res.Calibration)
	}
	if _, err := calib.FitBinary(res.HeldOut[1:], res.HeldOutShare, y); err == nil {
		t.Error("no error for 199 latents and 200 labels")
	}
}
