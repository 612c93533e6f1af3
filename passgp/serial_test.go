package passgp

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
)

// serialTol bounds the difference between the serial and the default
// prediction, relative to 1 + |value|: two summation orders of the same
// quantities, whose variance solve carries an error of order
// |A|·ε·κ(B), below 1e-11 for these classifiers.
const serialTol = 1e-9

// TestPredictSerial: the serial prediction of a plain and a FITC binary
// classifier (latents, shares, correlations and mean/variance) agrees
// with the default one within serialTol.
func TestPredictSerial(t *testing.T) {
	x, y := blobs(240, 2, 21)
	for i := range y {
		y[i] = 2*y[i] - 1
	}
	xt, _ := blobs(300, 2, 22)
	res, err := Train(context.Background(), x, y, &Options{Method: Full, FixedTheta: true, Kernel: toyKernel()})
	if err != nil {
		t.Fatal(err)
	}
	// The FITC classifier: the same active set as inducing inputs, its
	// FITC posterior on all the rows (as TrainFITC's pass makes it).
	f, err := ep.InferFITC(context.Background(), toyKernel(), x, y, res.Model.X, nil, &ep.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sparse := *res.Model
	sparse.Sparse = f
	for _, b := range []*Binary{res.Model, &sparse} {
		n, _ := xt.Dims()
		z1, r1 := make([]float64, n), make([]float64, n)
		z2, r2 := make([]float64, n), make([]float64, n)
		b.LatentShareTo(z1, r1, xt)
		b.LatentShareSerialTo(z2, r2, xt)
		m1, v1, m2, v2 := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		b.PredictMeanVarTo(m1, v1, xt)
		b.PredictMeanVarSerialTo(m2, v2, xt)
		for name, p := range map[string][2][]float64{"z": {z1, z2}, "rho": {r1, r2}, "mean": {m1, m2}, "var": {v1, v2}} {
			for i := range p[0] {
				if math.Abs(p[0][i]-p[1][i]) > serialTol*(1+math.Abs(p[0][i])) {
					t.Fatalf("fitc %v, %s[%d]: default %v, serial %v", b.Sparse != nil, name, i, p[0][i], p[1][i])
				}
			}
		}
		// One path run twice, on a slice of the rows: bit for bit.
		z3 := make([]float64, 7)
		b.LatentShareSerialTo(z3, nil, mat.DenseCopyOf(xt.Slice(100, 107, 0, 2)))
		for i, v := range z3 {
			if v != z2[100+i] {
				t.Fatalf("fitc %v: row %d alone %v, in the block %v", b.Sparse != nil, 100+i, v, z2[100+i])
			}
		}
	}
}
