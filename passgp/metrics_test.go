package passgp

import (
	"math"
	"testing"
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
