package calib

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestProbErrorRate(t *testing.T) {
	for _, c := range []struct {
		name    string
		prob, y []float64
		want    float64
	}{
		{"empty", nil, nil, 0},
		{"all right", []float64{0.9, 0.1, 0.51}, []float64{1, -1, 1}, 0},
		{"all wrong", []float64{0.1, 0.9}, []float64{1, -1}, 1},
		// q = 1/2 predicts -1, as the probability rule q > 1/2 for +1 does.
		{"half", []float64{0.5, 0.5, 0.7, 0.2}, []float64{1, -1, -1, -1}, 0.5},
	} {
		if got := ProbErrorRate(c.prob, c.y); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%s: ProbErrorRate = %v, want %v", c.name, got, c.want)
		}
		// The same as thresholding by hand and counting with ErrorRate.
		pred := make([]float64, len(c.prob))
		for i, p := range c.prob {
			pred[i] = -1
			if p > 0.5 {
				pred[i] = 1
			}
		}
		if got, want := ProbErrorRate(c.prob, c.y), ErrorRate(pred, c.y); got != want {
			t.Errorf("%s: ProbErrorRate = %v, ErrorRate of thresholded = %v", c.name, got, want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic on a length mismatch")
		}
	}()
	ProbErrorRate([]float64{0.2}, []float64{1, -1})
}

// TestMultiScores checks BrierMulti and MeanNLPMulti against hand-computed
// values, one row already normalised and one that is not.
func TestMultiScores(t *testing.T) {
	prob := mat.NewDense(2, 3, []float64{
		0.2, 0.6, 0.2, // label 1: sums to 1
		0.5, 0.5, 1.0, // label 2: normalised to 0.25, 0.25, 0.5
	})
	classes := []float64{0, 1, 2}
	labels := []float64{1, 2}
	wantBrier := ((0.04 + 0.16 + 0.04) + (0.0625 + 0.0625 + 0.25)) / 2
	if got := BrierMulti(prob, classes, labels); math.Abs(got-wantBrier) > 1e-15 {
		t.Errorf("BrierMulti = %v, want %v", got, wantBrier)
	}
	wantNLP := -(math.Log(0.6) + math.Log(0.5)) / 2
	if got := MeanNLPMulti(prob, classes, labels); math.Abs(got-wantNLP) > 1e-15 {
		t.Errorf("MeanNLPMulti = %v, want %v", got, wantNLP)
	}
}
