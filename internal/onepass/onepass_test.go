package onepass

import (
	"context"
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

// TestLBFGS: LBFGS minimises a quadratic within its evaluation cap, and a
// done context ends the search after the first evaluation.
func TestLBFGS(t *testing.T) {
	var calls int
	fg := func(u, grad []float64) float64 {
		calls++
		grad[0], grad[1] = 2*(u[0]-1), 8*(u[1]+2)
		return (u[0]-1)*(u[0]-1) + 4*(u[1]+2)*(u[1]+2)
	}
	best := math.Inf(1)
	track := func(u, grad []float64) float64 {
		f := fg(u, grad)
		best = math.Min(best, f)
		return f
	}
	LBFGS(context.Background(), track, []float64{5, 5}, 100, 1e-9, 1e-15)
	if best > 1e-10 || calls > 100 {
		t.Errorf("best value %v after %d evaluations (cap 100)", best, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls = 0
	LBFGS(ctx, fg, []float64{5, 5}, 100, 1e-9, 1e-15)
	if calls > 1 {
		t.Errorf("%d evaluations after the context ended", calls)
	}
}
