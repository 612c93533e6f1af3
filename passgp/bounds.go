package passgp

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/optimize"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// len2Floor divides the median squared distance of the training inputs to
// give the default lower bound of the SE squared length scale t2.
const len2Floor = 20

// medianSqDist returns the median squared distance between distinct rows of
// a seeded sample of at most 200 rows of x.
func medianSqDist(x Rows, seed uint64) (float64, error) {
	n, d := x.Dims()
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	idx := permPrefix(rng, n, 200)
	xs, err := readRows(x, idx)
	if err != nil || xs == nil {
		return 0, err
	}
	raw := xs.RawMatrix()
	var ds []float64
	for a := 0; a < len(idx); a++ {
		ra := raw.Data[a*raw.Stride : a*raw.Stride+d]
		for b := a + 1; b < len(idx); b++ {
			rb := raw.Data[b*raw.Stride : b*raw.Stride+d]
			s := 0.0
			for k, v := range ra {
				t := v - rb[k]
				s += t * t
			}
			ds = append(ds, s)
		}
	}
	if len(ds) == 0 {
		return 0, nil
	}
	slices.Sort(ds)
	return ds[len(ds)/2], nil
}

// thetaBounds returns the bounds on θ passed to ep.Optimize: Options.Lower
// and Upper where given; otherwise, for the SE kernels, a floor on the
// squared length scale t2 of median squared distance / len2Floor, and ep's
// defaults for the rest (nil entries). Without the floor, optimising the
// evidence of an active set made of hard points can collapse t2 until the
// kernel is diagonal (every point explained by its own latent), a
// classifier that predicts the prior everywhere; we saw this on USPS with
// fPASS-GP (digit 8: t2 = 0.66 against a median squared distance near 100).
func thetaBounds(c *config, x Rows) (lower, upper []float64, err error) {
	lower, upper = c.Lower, c.Upper
	if lower != nil {
		return lower, upper, nil
	}
	switch c.Kernel.(type) {
	case kernel.SE, kernel.SELin:
	default:
		return nil, upper, nil
	}
	med, err := medianSqDist(x, c.Seed)
	if err != nil || med <= 0 {
		return nil, upper, err
	}
	lower = make([]float64, len(c.Kernel.Params()))
	for j := range lower {
		lower[j] = 1e-8 // ep.DefaultLower
	}
	lower[1] = min(med/len2Floor, c.Kernel.Params()[1])
	return lower, upper, nil
}

// logBox is a search over log θ: the entries of th0 not marked in fixed
// are free, each within [lower, upper] (lo and hi, nil: ep's defaults),
// widened to hold th0. ivmOptimize and fitcTheta search in one.
type logBox struct {
	th0, lower, upper []float64
	free              []int
}

func newLogBox(th0 []float64, fixed []bool, lo, hi []float64) *logBox {
	np := len(th0)
	b := &logBox{th0: th0, lower: make([]float64, np), upper: make([]float64, np)}
	for j := range th0 {
		b.lower[j], b.upper[j] = ep.DefaultLower, ep.DefaultUpper
		if lo != nil {
			b.lower[j] = lo[j]
		}
		if hi != nil {
			b.upper[j] = hi[j]
		}
		b.lower[j], b.upper[j] = math.Min(b.lower[j], th0[j]), math.Max(b.upper[j], th0[j])
		if fixed == nil || !fixed[j] {
			b.free = append(b.free, j)
		}
	}
	return b
}

// start returns the free entries of log th0.
func (b *logBox) start() []float64 {
	u := make([]float64, len(b.free))
	for i, j := range b.free {
		u[i] = math.Log(b.th0[j])
	}
	return u
}

// theta returns θ for the free log-values u, clamped to the box, and
// which entries sit at a bound.
func (b *logBox) theta(u []float64) ([]float64, []bool) {
	th, at := slices.Clone(b.th0), make([]bool, len(b.th0))
	for i, j := range b.free {
		th[j] = math.Exp(u[i])
		if th[j] <= b.lower[j] {
			th[j], at[j] = b.lower[j], true
		} else if th[j] >= b.upper[j] {
			th[j], at[j] = b.upper[j], true
		}
	}
	return th, at
}

// lbfgs minimises fg (the objective at u; it writes the gradient into
// grad) with gonum/optimize's L-BFGS from u0 in at most maxEvals
// evaluations, stopping when every gradient component is below gradTol,
// when five iterations gained less than funcTol, or when ctx is done. gonum
// asks for the value and the gradient at a point separately; each point is
// evaluated once. The result is left to fg's caller: a failed line search
// still leaves the best point evaluated so far. ivmOptimize and fitcTheta
// search with it.
func lbfgs(ctx context.Context, fg func(u, grad []float64) float64, u0 []float64, maxEvals int, gradTol, funcTol float64) {
	var lastU, lastG []float64
	var lastF float64
	eval := func(u []float64) (float64, []float64) {
		if lastU == nil || !slices.Equal(u, lastU) {
			lastU, lastG = slices.Clone(u), make([]float64, len(u))
			lastF = fg(u, lastG)
		}
		return lastF, lastG
	}
	p := optimize.Problem{
		Func: func(u []float64) float64 { f, _ := eval(u); return f },
		Grad: func(grad, u []float64) { _, g := eval(u); copy(grad, g) },
	}
	_, _ = optimize.Minimize(p, u0, &optimize.Settings{FuncEvaluations: maxEvals, GradientThreshold: gradTol,
		Converger: &optimize.FunctionConverge{Absolute: funcTol, Iterations: 5}, Recorder: ctxRecorder{ctx}}, &optimize.LBFGS{})
}
