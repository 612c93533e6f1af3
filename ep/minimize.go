package ep

import (
	"math"

	"gonum.org/v1/gonum/optimize"
)

// fg evaluates the objective and its gradient at u; ok is false where the
// objective is undefined (EP failed).
type fg func(u []float64) (f float64, g []float64, ok bool)

// minimize runs gonum/optimize's L-BFGS on f from u0 with at most maxEvals
// evaluations. It stops when every gradient component is below gradTol or
// when five iterations gained less than funcTol (EP's log Z is only accurate
// to about its tolerance), or as soon as stop returns an error (checked
// after every evaluation). It returns a description of why it stopped.
func minimize(f fg, u0 []float64, maxEvals int, gradTol, funcTol float64, stop func() error) string {
	p := optimize.Problem{
		Func: func(u []float64) float64 {
			v, _, ok := f(u)
			if !ok || math.IsNaN(v) {
				return math.Inf(1)
			}
			return v
		},
		Grad: func(grad, u []float64) {
			_, g, _ := f(u)
			copy(grad, g)
		},
	}
	s := &optimize.Settings{
		FuncEvaluations:   maxEvals,
		GradientThreshold: gradTol,
		Converger:         &optimize.FunctionConverge{Absolute: funcTol, Iterations: 5},
		Recorder:          stopRecorder(stop),
	}
	res, err := optimize.Minimize(p, u0, s, &optimize.LBFGS{})
	switch {
	case err != nil && res != nil:
		return res.Status.String() + ": " + err.Error()
	case err != nil:
		return err.Error()
	}
	return res.Status.String()
}

// stopRecorder is an optimize.Recorder that ends the search (gonum stops
// when a Recorder returns an error) once stop reports one.
type stopRecorder func() error

func (stopRecorder) Init() error { return nil }

func (s stopRecorder) Record(*optimize.Location, optimize.Operation, *optimize.Stats) error {
	return s()
}
