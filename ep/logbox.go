package ep

import (
	"math"
	"slices"
)

// LogBox is a search space over log θ: the entries of Theta0 not fixed
// are Free, each within [Lower, Upper], widened to hold Theta0. Searching
// over log θ makes a step a relative change, whatever a parameter's
// scale; the box keeps the search away from the degenerate ends of each
// parameter (a signal variance of 0, a length scale of ∞). Optimize and
// the hyperparameter searches of package passgp run in one.
type LogBox struct {
	Theta0, Lower, Upper []float64
	Free                 []int
}

// NewLogBox returns the box around theta0 with the bounds lower and upper
// (nil: DefaultLower and DefaultUpper for every entry) and the entries
// marked in fixed (nil: none) held at theta0's values.
func NewLogBox(theta0 []float64, fixed []bool, lower, upper []float64) *LogBox {
	np := len(theta0)
	b := &LogBox{Theta0: slices.Clone(theta0), Lower: make([]float64, np), Upper: make([]float64, np)}
	for j, t := range theta0 {
		b.Lower[j], b.Upper[j] = DefaultLower, DefaultUpper
		if lower != nil {
			b.Lower[j] = lower[j]
		}
		if upper != nil {
			b.Upper[j] = upper[j]
		}
		b.Lower[j], b.Upper[j] = math.Min(b.Lower[j], t), math.Max(b.Upper[j], t)
		if fixed == nil || !fixed[j] {
			b.Free = append(b.Free, j)
		}
	}
	return b
}

// Start returns the free entries of log Theta0.
func (b *LogBox) Start() []float64 {
	u := make([]float64, len(b.Free))
	for i, j := range b.Free {
		u[i] = math.Log(b.Theta0[j])
	}
	return u
}

// Theta returns θ for the free log-values u, clamped to the box, and which
// entries sit at a bound. The comparison is in log space, because
// exp(log(hi)) may round below hi.
func (b *LogBox) Theta(u []float64) (theta []float64, at []bool) {
	theta, at = slices.Clone(b.Theta0), make([]bool, len(b.Theta0))
	for i, j := range b.Free {
		switch {
		case u[i] <= math.Log(b.Lower[j])+1e-12:
			theta[j], at[j] = b.Lower[j], true
		case u[i] >= math.Log(b.Upper[j])-1e-12:
			theta[j], at[j] = b.Upper[j], true
		default:
			theta[j] = math.Exp(u[i])
		}
	}
	return theta, at
}
