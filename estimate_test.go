package passgpfast

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/model"
)

// The held-out estimate fits each fold's map on the other folds'
// held-out latents z and scores the fold's estimate latents ze: checked
// against a brute-force fold loop, and against the estimate of z alone.
func TestCrossFitScoresEstimate(t *testing.T) {
	const n = 300
	rng := rand.New(rand.NewPCG(5, 6))
	z, rho := mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
	ze := mat.NewDense(n, 1, nil)
	truth := make([]int, n)
	for i := range n {
		truth[i] = rng.IntN(2)
		v := 1.5*float64(2*truth[i]-1) + rng.NormFloat64()
		z.Set(i, 0, v)
		rho.Set(i, 0, rng.Float64()/2)
		ze.Set(i, 0, v)
		if i%4 == 0 {
			ze.Set(i, 0, -v) // "active" points whose estimate latent differs
		}
	}
	m := &model.Model{Mode: model.Binary, Classes: []float64{-1, 1}}
	got, err := crossFitMetrics(m, z, rho, ze, rho, truth, 9)
	if err != nil {
		t.Fatal(err)
	}
	same, err := crossFitMetrics(m, z, rho, z, rho, truth, 9)
	if err != nil {
		t.Fatal(err)
	}
	folds, cals, err := calib.CrossFit(z, rho, truth, 9)
	if err != nil {
		t.Fatal(err)
	}
	wrong, nlp := 0, 0.0
	for f, rows := range folds {
		for _, i := range rows {
			p := mat.NewDense(1, 2, nil)
			cals[f].ProbTo(p, mat.NewDense(1, 1, []float64{ze.At(i, 0)}), mat.NewDense(1, 1, []float64{rho.At(i, 0)}))
			if (p.At(0, 1) > p.At(0, 0)) != (truth[i] == 1) {
				wrong++
			}
			nlp -= math.Log(p.At(0, truth[i]))
		}
	}
	if got.N != n || math.Abs(got.Error-float64(wrong)/n) > 1e-12 || math.Abs(got.NLP-nlp/n) > 1e-6 {
		t.Errorf("estimate: error %v, NLP %v; brute force %v, %v", got.Error, got.NLP, float64(wrong)/n, nlp/n)
	}
	if !(got.Error > same.Error) {
		t.Errorf("flipping a quarter of the scored latents left the error at %v (z alone: %v)", got.Error, same.Error)
	}
}
