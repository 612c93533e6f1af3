// Package onepass gives gonum/optimize a problem whose value and gradient
// come from one evaluation of the objective at each point.
package onepass

import (
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
