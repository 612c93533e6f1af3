package model

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
)

// TestCalibrationBalanceRoundTrip: format version 6 stores the
// calibration's class balance; a version 5 file of the same model loads
// without it and predicts bit for bit with the latent-only map, as
// version 5 programs did; a balance of the wrong length, with a share
// outside [0, 1] or not summing to one is refused.
func TestCalibrationBalanceRoundTrip(t *testing.T) {
	m := toyModel(t, OneVsRest, kernels[0], 9)
	m.Calibration = &calib.Calibration{A: 1.5, B: []float64{0.1, -0.2, 0.05}, Eps: 0.07, Balance: []float64{0.5, 0.3, 0.2}}
	got := reencode(t, m)
	if got.FormatVersion != Version || !reflect.DeepEqual(got.Calibration, m.Calibration) {
		t.Fatalf("version %d, calibration %+v; want %+v", got.FormatVersion, got.Calibration, m.Calibration)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	x := mat.NewDense(40, m.D(), nil)
	for i := range 40 {
		for j := range m.D() {
			x.Set(i, j, 3*rng.NormFloat64())
		}
	}
	x.Set(0, 0, 1e3) // far from the data: share 1
	v5 := asVersion(t, m, 5)
	if v5.FormatVersion != 5 || v5.Calibration == nil || v5.Calibration.Balance != nil {
		t.Fatalf("version 5 file: version %d, calibration %+v", v5.FormatVersion, v5.Calibration)
	}
	p5, p6 := mat.NewDense(40, 3, nil), mat.NewDense(40, 3, nil)
	v5.ProbTo(p5, x)
	got.ProbTo(p6, x)
	z := mat.NewDense(40, 3, nil)
	m.LatentTo(z, x)
	want := mat.NewDense(40, 3, nil)
	plain := *m.Calibration
	plain.Balance = nil
	plain.ProbTo(want, z, nil)
	if !mat.Equal(p5, want) {
		t.Error("version 5 file: probabilities differ from the latent-only map")
	}
	if mat.Equal(p6, want) {
		t.Error("version 6 file: the balance changed no probability")
	}
	for j, w := range m.Calibration.Balance {
		if d := p6.At(0, j) - w; d > 1e-9 || d < -1e-9 {
			t.Errorf("far point: p_%d = %v, want the class share %v", j, p6.At(0, j), w)
		}
	}
	for _, bad := range [][]float64{{0.5, 0.5}, {0.5, 0.7, -0.2}, {0.5, 0.3, 0.3}, {0.5, 0.3, 0.2, 0}} {
		m.Calibration.Balance = bad
		r, err := m.record()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(frame(KindModel, encodeRecord(r))); !errors.Is(err, ErrPayload) {
			t.Errorf("balance %v: %v", bad, err)
		}
	}
}
