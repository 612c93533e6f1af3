// Package onepass holds the module's use of gonum/optimize's L-BFGS: its
// settings, and a problem whose value and gradient come from one
// evaluation of the objective at each point.
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
// grad) with gonum/optimize's L-BFGS from u0 under Settings(maxEvals,
// gradTol, funcTol, ctx.Err); each point is evaluated once (Problem). The
// result is left to fg's caller: a failed line search still leaves the
// best point evaluated so far.
func LBFGS(ctx context.Context, fg func(u, grad []float64) float64, u0 []float64, maxEvals int, gradTol, funcTol float64) {
	_, _ = optimize.Minimize(Problem(fg), u0, Settings(maxEvals, gradTol, funcTol, ctx.Err), &optimize.LBFGS{})
}

// Settings are the settings of the module's L-BFGS searches: at most
// maxEvals evaluations, stopping when every gradient component is below
// gradTol, when five iterations gained less than funcTol, or as soon as
// stop returns an error (checked after every evaluation).
func Settings(maxEvals int, gradTol, funcTol float64, stop func() error) *optimize.Settings {
	return &optimize.Settings{FuncEvaluations: maxEvals, GradientThreshold: gradTol,
		Converger: &optimize.FunctionConverge{Absolute: funcTol, Iterations: 5}, Recorder: stopRecorder(stop)}
}

// stopRecorder ends a search (gonum stops when its Recorder returns an
// error) once stop reports one.
type stopRecorder func() error

func (stopRecorder) Init() error { return nil }

func (s stopRecorder) Record(*optimize.Location, optimize.Operation, *optimize.Stats) error {
	return s()
}
