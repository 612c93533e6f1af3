package model

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
)

// TestCalibrationKappaRoundTrip: format version 8 stores a binary
// calibration's Kappa; a version 7 file of the same model loads with
// Kappa 0 and predicts bit for bit with the symmetric mixture (κ = 1/2),
// as version 7 programs did; a Kappa outside [0, 1) is refused. A
// one-vs-rest calibration has no Kappa and its file is as before.
func TestCalibrationKappaRoundTrip(t *testing.T) {
	m := toyModel(t, Binary, kernels[2], 3)
	m.Calibration = &calib.Calibration{A: 1.5, B: []float64{-0.3}, Eps: 0.6, Balance: []float64{0.2}, Kappa: 0.15}
	got := reencode(t, m)
	if got.FormatVersion != Version || got.Calibration.Kappa != 0.15 {
		t.Fatalf("version %d, calibration %+v", got.FormatVersion, got.Calibration)
	}
	rng := rand.New(rand.NewPCG(8, 9))
	x := mat.NewDense(40, m.D(), nil)
	for i := range 40 {
		for j := range m.D() {
			x.Set(i, j, 2*rng.NormFloat64())
		}
	}
	v7 := asVersion(t, m, 7)
	if v7.FormatVersion != 7 || v7.Calibration.Kappa != 0 {
		t.Fatalf("version 7 file: version %d, calibration %+v", v7.FormatVersion, v7.Calibration)
	}
	p7, p8, want := mat.NewDense(40, 2, nil), mat.NewDense(40, 2, nil), mat.NewDense(40, 2, nil)
	v7.ProbTo(p7, x)
	got.ProbTo(p8, x)
	z, rho := mat.NewDense(40, 1, nil), mat.NewDense(40, 1, nil)
	m.LatentShareTo(z, rho, x)
	sym := *m.Calibration
	sym.Kappa = 0.5
	sym.ProbTo(want, z, rho)
	if !mat.Equal(p7, want) {
		t.Error("version 7 file: probabilities differ from the symmetric mixture")
	}
	for i := range 40 {
		if p := p8.At(i, 1); p > 1-0.6*0.85+1e-15 {
			t.Fatalf("version 8 file: p(+1) = %v above the ceiling 1 − ε(1 − κ)", p)
		}
	}
	for _, bad := range []float64{-0.1, 1, math.NaN()} {
		m.Calibration.Kappa = bad
		r, err := m.record()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(frame(KindModel, encodeRecord(r))); !errors.Is(err, ErrPayload) {
			t.Errorf("Kappa %v: %v", bad, err)
		}
	}
	multi := toyModel(t, OneVsRest, kernels[0], 9)
	multi.Calibration = &calib.Calibration{A: 1.5, B: []float64{0.1, -0.2, 0.05}, Eps: 0.07, Balance: []float64{0.5, 0.3, 0.2}}
	r, err := multi.record()
	if err != nil {
		t.Fatal(err)
	}
	if a, b := encodeRecordVersion(r, 7), encodeRecordVersion(r, 8); string(a) != string(b) {
		t.Error("one-vs-rest: the version 8 payload differs from version 7's")
	}
}
