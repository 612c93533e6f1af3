// Package onepass gives gonum/optimize a problem whose value and gradient
// come from one evaluation of the objective at each point.
package onepass

import (
	"context"
	"slices"

	"gonum.org/v1/gonum/optimize"
)

// Problem returns the problem of minimising fg, which returns the
// objective at x and writes its gradient into grad. gonum's L-BFGS asks
// for the value and then the gradient at each point of its line search;
// both come from one call of fg, kept until the next point, so each point
// costs one evaluation. fg's value must not depend on whether the gradient
// is wanted (it always is here).
func Problem(fg func(x, grad []float64) float64) optimize.Problem {
	var lastX, lastG []float64
	var lastF float64
	eval := func(x []float64) {
		if lastX == nil || !slices.Equal(x, lastX) {
			lastX, lastG = slices.Clone(x), make([]float64, len(x))
			lastF = fg(x, lastG)
		}
	}
	return optimize.Problem{
		Func: func(x []float64) float64 { eval(x); return lastF },
		Grad: func(grad, x []float64) { eval(x); copy(grad, lastG) },
	}
}

// LBFGS minimises fg (the objective at u; it writes the gradient into
// grad) with gonum/optimize's L-BFGS from u0 in at most maxEvals
// evaluations, stopping when every gradient component is below gradTol,
// when five iterations gained less than funcTol, or when ctx is done; each
// point is evaluated once (Problem). The result is left to fg's caller: a
// failed line search still leaves the best point evaluated so far.
func LBFGS(ctx context.Context, fg func(u, grad []float64) float64, u0 []float64, maxEvals int, gradTol, funcTol float64) {
	_, _ = optimize.Minimize(Problem(fg), u0, &optimize.Settings{FuncEvaluations: maxEvals, GradientThreshold: gradTol,
		Converger: &optimize.FunctionConverge{Absolute: funcTol, Iterations: 5}, Recorder: ctxRecorder{ctx}}, &optimize.LBFGS{})
}

// ctxRecorder ends a search (gonum stops when its Recorder returns an
// error) once ctx is done.
type ctxRecorder struct{ ctx context.Context }

func (ctxRecorder) Init() error { return nil }

func (r ctxRecorder) Record(*optimize.Location, optimize.Operation, *optimize.Stats) error {
	return r.ctx.Err()
}
