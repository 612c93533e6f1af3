package ep

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// serialTol is the agreement required between the serial and the BLAS
// prediction (two summation orders), relative to 1 + |m| for means and
// to the prior variance k(x, x) for variances: n·ε·κ(B) is below 1e-11
// for these posteriors (n ≤ 150, κ(B) < 1e4), 1e-9 leaves room for the
// solve's accumulated rounding.
const serialTol = 1e-9

func TestPredictSerial(t *testing.T) {
	x, y := blobs(150, 11)
	xs, _ := blobs(70, 12)
	for _, k := range []kernel.Kernel{
		kernel.SE{Var: 2, Len2: 0.8, Jitter: 1e-4},
		kernel.SELin{SE: kernel.SE{Var: 2, Len2: 0.8, Jitter: 1e-4}, Lin: 0.2},
		kernel.Poly{Var: 1, Degree: 2, Jitter: 1e-3},
	} {
		p, err := Infer(k, x, y, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		m1, v1, p1 := make([]float64, 70), make([]float64, 70), make([]float64, 70)
		p.PredictTo(m1, v1, p1, xs)
		m2, v2, p2 := make([]float64, 70), make([]float64, 70), make([]float64, 70)
		p.PredictSerialTo(m2, v2, p2, xs)
		kss := make([]float64, 70)
		k.DiagTo(kss, xs)
		compareSerial(t, k.Name(), m1, v1, p1, m2, v2, p2, kss)
		// The cross form from the serial Gram block is the same path.
		ks := mat.NewDense(70, 150, nil)
		kernel.SerialCrossTo(k, ks, xs, x)
		m3, v3 := make([]float64, 70), make([]float64, 70)
		p.PredictCrossSerialTo(m3, v3, nil, ks, kss)
		for i := range m3 {
			if m3[i] != m2[i] || v3[i] != v2[i] {
				t.Fatalf("%s row %d: PredictCrossSerialTo %v %v, PredictSerialTo %v %v", k.Name(), i, m3[i], v3[i], m2[i], v2[i])
			}
		}
	}
}

func TestFITCPredictSerial(t *testing.T) {
	x, y := blobs(80, 3)
	xs, _ := blobs(40, 4)
	k := kernel.SE{Var: 2, Len2: 0.8, Jitter: 1e-3}
	f, err := InferFITC(context.Background(), k, x, y, mat.DenseCopyOf(x.Slice(0, 20, 0, 2)), nil, &Options{SiteTol: 1e-10, MaxSweeps: 1000})
	if err != nil {
		t.Fatal(err)
	}
	m1, v1, p1 := make([]float64, 40), make([]float64, 40), make([]float64, 40)
	f.PredictTo(m1, v1, p1, xs)
	m2, v2, p2 := make([]float64, 40), make([]float64, 40), make([]float64, 40)
	f.PredictSerialTo(m2, v2, p2, xs)
	kss := make([]float64, 40)
	k.DiagTo(kss, xs)
	compareSerial(t, "fitc", m1, v1, p1, m2, v2, p2, kss)
}

func compareSerial(t *testing.T, name string, m1, v1, p1, m2, v2, p2, kss []float64) {
	t.Helper()
	for i := range m1 {
		if math.Abs(m1[i]-m2[i]) > serialTol*(1+math.Abs(m1[i])) || math.Abs(v1[i]-v2[i]) > serialTol*kss[i] ||
			math.Abs(p1[i]-p2[i]) > serialTol {
			t.Fatalf("%s row %d: BLAS %v %v %v, serial %v %v %v", name, i, m1[i], v1[i], p1[i], m2[i], v2[i], p2[i])
		}
	}
}
