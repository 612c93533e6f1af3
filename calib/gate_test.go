package calib

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// storedNear and storedFar are the gate (Calibration.GateNear and
// GateFar) that model files written by older builds carry and predict
// applies.
const (
	storedNear = 1e-4
	storedFar  = 1e-8
)

// TestGateWeight: the gate is 0 from storedNear up, 1 from storedFar down, and
// falls monotonically and continuously between them.
func TestGateWeight(t *testing.T) {
	w := func(c float64) float64 { return gateWeight(c, storedNear, storedFar) }
	if w(storedNear) != 0 || w(1) != 0 || w(storedFar) != 1 || w(0) != 1 || w(math.NaN()) != 0 {
		t.Fatalf("ends: %v %v %v %v, NaN %v", w(storedNear), w(1), w(storedFar), w(0), w(math.NaN()))
	}
	prev := 1.0
	for e := -8.0; e <= -4; e += 0.01 {
		w := w(math.Pow(10, e))
		if w > prev+1e-15 || prev-w > 0.01 {
			t.Fatalf("weight %v at 1e%.2f after %v: not monotone or jumps", w, e, prev)
		}
		prev = w
	}
}

// TestGateShapes: Gate moves rows by their correlations' weights, leaves
// its inputs alone, does nothing for a calibration without a gate (model
// files before format version 9) or a balance, and panics on mismatched
// shapes.
func TestGateShapes(t *testing.T) {
	z := mat.NewDense(2, 2, []float64{1, -2, 3, 4})
	rho := mat.NewDense(2, 2, []float64{0.1, 0.2, 0.3, 0.4})
	// Weights 0, 1/2, 0, 1: the middle of the step in log c is √(10⁻⁴·10⁻⁸).
	near := mat.NewDense(2, 2, []float64{1, 1e-6, 0.5, 1e-9})
	c := &Calibration{A: 1, B: []float64{0, 0}, Balance: []float64{0.4, 0.6}, GateNear: storedNear, GateFar: storedFar}
	cz, cr := c.Gate(z, rho, near)
	want := []float64{1, -1, 3, 0}
	wantR := []float64{0.1, 0.6, 0.3, 1}
	for i := range want {
		if math.Abs(cz.RawMatrix().Data[i]-want[i]) > 1e-12 || math.Abs(cr.RawMatrix().Data[i]-wantR[i]) > 1e-12 {
			t.Fatalf("moved %v, %v; want %v, %v", cz.RawMatrix().Data, cr.RawMatrix().Data, want, wantR)
		}
	}
	if z.At(0, 1) != -2 || rho.At(1, 1) != 0.4 {
		t.Fatalf("Gate changed its inputs")
	}
	old := &Calibration{A: 1, B: []float64{0, 0}}
	if a, b := old.Gate(z, rho, near); a != z || b != rho {
		t.Fatalf("a calibration without a gate moved points")
	}
	noBalance := &Calibration{A: 1, B: []float64{0, 0}, GateNear: storedNear, GateFar: storedFar}
	if a, b := noBalance.Gate(z, rho, near); a != z || b != rho {
		t.Fatalf("a calibration without a balance moved points")
	}
	for _, f := range []func(){
		func() { c.Gate(z, rho, mat.NewDense(2, 1, nil)) },
		func() { c.Gate(z, mat.NewDense(1, 2, nil), near) },
		func() { c.Gate(z, nil, near) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic")
				}
			}()
			f()
		}()
	}
}
