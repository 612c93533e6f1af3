package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
)

// TestFigures checks error and Brier score on a hand-computed case.
func TestFigures(t *testing.T) {
	prob := mat.NewDense(2, 3, []float64{
		0.7, 0.2, 0.1, // true class 0: right, Brier 0.09 + 0.04 + 0.01
		0.5, 0.3, 0.2, // true class 2: wrong, Brier 0.25 + 0.09 + 0.64
	})
	r := figures(prob, []int{0, 2})
	if r.err != 0.5 || math.Abs(r.brier-(0.14+0.98)/2) > 1e-12 {
		t.Errorf("figures = %+v, want error 0.5, Brier 0.56", r)
	}
}

// TestCrossFit draws classes from a known multinomial logistic map of
// three latents (9000 points, seeded): the cross-fitted calibration's test
// NLP and Brier score are within 0.01 of the true map's, and score gives
// the true map's NLP as the mean of −log p of the true classes.
func TestCrossFit(t *testing.T) {
	const n, k = 9000, 3
	rng := rand.New(rand.NewPCG(3, 4))
	truthCal := &calib.Calibration{A: 2, B: []float64{0.4, 0, -0.3}}
	z := mat.NewDense(n, k, nil)
	truth := make([]int, n)
	p := make([]float64, k)
	var nlp float64
	for i := range n {
		var s float64
		for c := range k {
			v := 1.2 * rng.NormFloat64()
			z.Set(i, c, v)
			p[c] = math.Exp(truthCal.A*v + truthCal.B[c])
			s += p[c]
		}
		u, c := rng.Float64()*s, 0
		for ; c < k-1 && u > p[c]; c++ {
			u -= p[c]
		}
		truth[i] = c
		nlp -= math.Log(p[c] / s)
	}
	nlp /= n
	rho := mat.NewDense(n, k, nil)
	want := score("true", truthCal, z, rho, truth)
	if math.Abs(want.nlp-nlp) > 1e-9 {
		t.Fatalf("score's NLP %v, mean −log p of the true classes %v", want.nlp, nlp)
	}
	for _, folds := range []int{2, 5} {
		got, err := crossFit(z, rho, truth, folds)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.nlp-want.nlp) > 0.01 || math.Abs(got.brier-want.brier) > 0.01 || math.Abs(got.err-want.err) > 0.01 {
			t.Errorf("%d folds: cross-fitted %+v, true map %+v", folds, got, want)
		}
	}
}
