package model

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
)

// TestCalibrationGateRoundTrip: format version 9 stores the calibration's
// far-field gate, and ProbTo gives the class balance far from the active
// points (se+bias, whose constant keeps the raw latent off 0 there) and
// the map of LatentShareTo's inputs near them; a version 8 file of the
// same model loads without a gate and predicts bit for bit as version 8
// programs did, everywhere; a gate out of order or outside (0, 1] is
// refused.
func TestCalibrationGateRoundTrip(t *testing.T) {
	for _, mode := range []Mode{Binary, OneVsRest} {
		m := toyModel(t, mode, kernels[2], 4)
		k := len(m.Binaries)
		c := &calib.Calibration{A: 1.2, B: make([]float64, k), Eps: 0.05, GateNear: 1e-4, GateFar: 1e-8}
		if k == 1 {
			c.Balance, c.Kappa = []float64{0.3}, 0.2
		} else {
			c.Balance = make([]float64, k)
			for j := range k {
				c.B[j] = 0.1 * float64(j)
				c.Balance[j] = 1 / float64(k)
			}
		}
		m.Calibration = c
		got := reencode(t, m)
		if got.FormatVersion != Version || got.Calibration.GateNear != 1e-4 || got.Calibration.GateFar != 1e-8 {
			t.Fatalf("%v: version %d, calibration %+v", mode, got.FormatVersion, got.Calibration)
		}
		const n = 30
		rng := rand.New(rand.NewPCG(3, 4))
		x := mat.NewDense(n, m.D(), nil)
		for i := range n {
			for j := range m.D() {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		x.Set(0, 0, 1e3) // far from the data
		no := len(m.Outputs())
		p9, p8, want := mat.NewDense(n, no, nil), mat.NewDense(n, no, nil), mat.NewDense(n, no, nil)
		got.ProbTo(p9, x)
		v8 := asVersion(t, m, 8)
		if v8.FormatVersion != 8 || v8.Calibration.GateNear != 0 || v8.Calibration.GateFar != 0 {
			t.Fatalf("%v: version 8 file: version %d, calibration %+v", mode, v8.FormatVersion, v8.Calibration)
		}
		v8.ProbTo(p8, x)
		z, rho := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
		m.LatentShareTo(z, rho, x)
		m.ProbFromLatent(want, z, rho)
		if !mat.Equal(p8, want) {
			t.Errorf("%v: version 8 file: probabilities differ from the ungated map", mode)
		}
		if !mat.Equal(p9.Slice(1, n, 0, no), want.Slice(1, n, 0, no)) {
			t.Errorf("%v: version 9 file: probabilities near the data differ from the ungated map", mode)
		}
		pos := func(p *mat.Dense) float64 { // the far point's first class's probability
			if mode == Binary {
				return p.At(0, 1)
			}
			return p.At(0, 0)
		}
		if d := pos(p9) - c.Balance[0]; math.Abs(d) > 1e-12 {
			t.Errorf("%v: far point: %v, want the balance %v", mode, pos(p9), c.Balance[0])
		}
		if d := pos(p8) - c.Balance[0]; math.Abs(d) < 1e-3 {
			t.Errorf("%v: far point without the gate: %v, already the balance %v; the test shows nothing", mode, pos(p8), c.Balance[0])
		}
		for _, bad := range [][2]float64{{1e-8, 1e-4}, {1e-4, 0}, {0, 1e-8}, {2, 1e-8}, {math.NaN(), 1e-8}, {1e-4, 1e-4}} {
			m.Calibration.GateNear, m.Calibration.GateFar = bad[0], bad[1]
			r, err := m.record()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Decode(frame(KindModel, encodeRecord(r))); !errors.Is(err, ErrPayload) {
				t.Errorf("%v: gate %v: %v", mode, bad, err)
			}
		}
	}
}
