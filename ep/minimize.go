package ep

import (
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/passgp-fast/passgp-fast/internal/onepass"
)

// minimize runs gonum/optimize's L-BFGS on f from u0 with at most maxEvals
// evaluations: f(u) is the objective (ok false where it is undefined, EP
// having failed) and g(u) its gradient at the point f last evaluated,
// which the line search asks for only where f decreased. It stops when
// every gradient component is below gradTol or when five iterations
// gained less than funcTol (EP's log Z is only accurate to about its
// tolerance), or as soon as stop returns an error (checked after every
// evaluation). It returns a description of why it stopped.
func minimize(f func(u []float64) (float64, bool), g func(u []float64) []float64, u0 []float64, maxEvals int, gradTol, funcTol float64, stop func() error) string {
	p := optimize.Problem{
		Func: func(u []float64) float64 {
			v, ok := f(u)
			if !ok || math.IsNaN(v) {
				return math.Inf(1)
			}
			return v
		},
		Grad: func(grad, u []float64) { copy(grad, g(u)) },
	}
	s := onepass.Settings(maxEvals, gradTol, funcTol, stop)
	res, err := optimize.Minimize(p, u0, s, &optimize.LBFGS{})
	switch {
	case err != nil && res != nil:
		return res.Status.String() + ": " + err.Error()
	case err != nil:
		return err.Error()
	}
	return res.Status.String()
}
