package onepass

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/optimize"
)

// TestProblem: L-BFGS through Problem finds the minimum of a quadratic,
// and no point is evaluated twice in a row.
func TestProblem(t *testing.T) {
	var calls, repeats int
	var prev []float64
	p := Problem(func(x, grad []float64) float64 {
		calls++
		if prev != nil && x[0] == prev[0] && x[1] == prev[1] {
			repeats++
		}
		prev = append(prev[:0], x...)
		grad[0], grad[1] = 2*(x[0]-1), 8*(x[1]+2)
		return (x[0]-1)*(x[0]-1) + 4*(x[1]+2)*(x[1]+2)
	})
	res, err := optimize.Minimize(p, []float64{5, 5}, &optimize.Settings{GradientThreshold: 1e-9}, &optimize.LBFGS{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.X[0]-1) > 1e-6 || math.Abs(res.X[1]+2) > 1e-6 {
		t.Errorf("minimum at %v, want [1 -2]", res.X)
	}
	if repeats != 0 {
		t.Errorf("%d of %d evaluations repeated the point before", repeats, calls)
	}
	if calls > res.Stats.FuncEvaluations {
		t.Errorf("%d evaluations for %d values asked", calls, res.Stats.FuncEvaluations)
	}
}
