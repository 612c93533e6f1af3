package ep

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// Default bounds of Optimize on every θ component (not log θ). log Z_EP
// may have no finite maximum (on separable training sets it keeps rising
// with the signal variance t1, README of fixtures/gpml); the upper bound
// stops the search there. At t1 = 1e6 the fixtures' log Z is within 2e-4
// of its supremum. A start outside the bounds widens them to include it.
const (
	DefaultLower = 1e-8
	DefaultUpper = 1e6
)

// OptimizeOptions control Optimize. The zero value gives the defaults.
type OptimizeOptions struct {
	Fixed        []bool    // per θ component (paper order); nil = all free
	MaxEvals     int       // EP runs (function+gradient evaluations); 0 means 100
	Lower, Upper []float64 // optional bounds on θ (not log); nil = DefaultLower/DefaultUpper
	GradTol      float64   // stop when max |∂ log Z/∂ log θ_j| over free j < GradTol; 0 means 1e-6
	FuncTol      float64   // stop when five iterations gain less than FuncTol in log Z; 0 means EP's tolerance
	EP           Options
}

// OptimizeResult is the outcome of Optimize.
type OptimizeResult struct {
	Kernel  kernel.Kernel // kernel at the best θ found
	Post    *Posterior    // EP posterior at Kernel
	Evals   int           // EP runs
	Status  string        // why the search stopped, and the components at a bound
	AtBound []bool        // per θ component: at its lower or upper bound
	// NotConverged is set when EP at the returned θ (Post) did not meet
	// its stopping rule within the sweep cap, even after the sequential
	// fallback: Post is then usable but not converged.
	NotConverged bool
	// NotConvergedEvals counts the EP runs of the search that did not
	// converge.
	NotConvergedEvals int
}

// Optimize maximises log Z_EP over log θ with gonum/optimize's L-BFGS,
// starting from k's θ. Every EP run is warm-started from the sites of the
// previous one (or from warm for the first). Components outside
// [Lower, Upper] are clamped to the bounds, where log Z is treated as flat
// (gradient zero beyond the bound), so the search stops at a bound when
// log Z keeps increasing beyond it; AtBound and Status report this.
//
// An EP run of the parallel schedule that does not converge within the
// sweep cap is continued with the sequential schedule; one that still does
// not converge is used as it is (its sites are a valid approximation) and
// counted in NotConvergedEvals (NotConverged when it is the returned one).
// An error is returned only if EP fails at the start or o.EP is invalid.
func Optimize(k kernel.Kernel, x *mat.Dense, y []float64, warm *Sites, o *OptimizeOptions) (*OptimizeResult, error) {
	return OptimizeContext(context.Background(), k, x, y, warm, o)
}

// OptimizeContext is Optimize that stops when ctx is done, within one EP
// sweep: it then returns a nil result and ctx's error.
func OptimizeContext(ctx context.Context, k kernel.Kernel, x *mat.Dense, y []float64, warm *Sites, o *OptimizeOptions) (*OptimizeResult, error) {
	if o == nil {
		o = &OptimizeOptions{}
	}
	theta0 := k.Params()
	if o.Fixed != nil && len(o.Fixed) != len(theta0) {
		panic(fmt.Sprintf("ep: Optimize: len(Fixed) = %d, want %d", len(o.Fixed), len(theta0)))
	}
	if err := o.EP.Validate(); err != nil {
		return nil, err
	}
	if o.MaxEvals < 0 || !(o.GradTol >= 0) || !(o.FuncTol >= 0) {
		return nil, fmt.Errorf("ep: Optimize: MaxEvals %d, GradTol %v and FuncTol %v must be >= 0", o.MaxEvals, o.GradTol, o.FuncTol)
	}
	maxEvals := cmp.Or(o.MaxEvals, 100)
	gradTol := cmp.Or(o.GradTol, 1e-6)
	op := &optimizer{ctx: ctx, k: k, x: x, y: y, ep: o.EP, box: NewLogBox(theta0, o.Fixed, o.Lower, o.Upper)}
	if warm != nil {
		s := warm.Clone()
		op.sites = &s
	}
	u0 := op.box.Start()
	e0 := op.evaluate(u0)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e0.post == nil {
		return nil, fmt.Errorf("ep: Optimize: EP at the start θ = %v failed: %w", theta0, op.firstErr)
	}
	status := "no free hyperparameters"
	if len(op.box.Free) > 0 {
		status = minimize(func(u []float64) (float64, bool) {
			e := op.evaluate(u)
			return e.f, e.post != nil
		}, func(u []float64) []float64 {
			return op.gradient(op.evaluate(u))
		}, u0, maxEvals, gradTol, cmp.Or(o.FuncTol, math.Max(o.EP.tol(), 1e-12)), ctx.Err)
	}
	op.dropLastInv()
	if last := op.last; last != op.best {
		op.last = nil
		op.discard(last)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	best := op.best
	return &OptimizeResult{Kernel: best.kern, Post: best.post, Evals: op.evals, AtBound: best.bounds,
		NotConverged: best.nc, NotConvergedEvals: op.ncs, Status: status + op.boundNote()}, nil
}

// optimizer is the state of one OptimizeContext search: the last and the
// best evaluation, the sites the next EP run starts from, and counts.
type optimizer struct {
	ctx        context.Context
	k          kernel.Kernel
	x          *mat.Dense
	y          []float64
	ep         Options
	box        *LogBox
	sites      *Sites
	last, best *evaluation
	evals, ncs int
	firstErr   error
}

// evaluation is EP and the gradient of −log Z_EP at one point u of the box.
type evaluation struct {
	u      []float64
	theta  []float64
	f      float64
	g      []float64 // gradient of -log Z in u, once gDone (optimizer.gradient)
	gDone  bool
	post   *Posterior
	kern   kernel.Kernel
	bounds []bool
	nc     bool // EP did not converge
}

// evaluate runs EP at u, warm-started from the last successful run's
// sites; the point asked for last is not run again. The gradient is
// left to gradient: a line search's trial that does not lower the
// objective never needs it.
func (op *optimizer) evaluate(u []float64) *evaluation {
	if op.last != nil && slices.Equal(op.last.u, u) {
		return op.last
	}
	op.dropLastInv()
	defer op.discard(op.last, op.best)
	e := &evaluation{u: slices.Clone(u), f: math.Inf(1), g: make([]float64, len(u))}
	e.theta, e.bounds = op.box.Theta(u)
	e.kern = op.k.WithParams(e.theta)
	op.evals++
	op.last = e
	p, err := op.infer(e)
	if err == nil {
		// Cancelled as EP finished: skip the O(n³) gradient.
		err = op.ctx.Err()
	}
	if err != nil {
		if p != nil {
			p.dropInv()
		}
		op.firstErr = cmp.Or(op.firstErr, err)
		return e
	}
	e.post = p
	e.f = -p.LogZ
	s := p.Sites.Clone()
	op.sites = &s
	if op.best == nil || e.f < op.best.f {
		op.best = e
	}
	return e
}

// discard releases the posteriors of the evaluations es that are
// neither the last nor the best any more: the search never reads them
// again.
func (op *optimizer) discard(es ...*evaluation) {
	for _, e := range es {
		if e == nil || e.post == nil || e == op.last || e == op.best {
			continue
		}
		e.post.release()
		e.post = nil
	}
}

// dropLastInv returns the inverse kept by the last evaluation's EP run
// to the pool when its gradient was not asked for.
func (op *optimizer) dropLastInv() {
	if op.last != nil && op.last.post != nil && !op.last.gDone {
		op.last.post.dropInv()
	}
}

// gradient returns e's gradient of −log Z_EP in u (zero where EP
// failed, and for a component at its bound), computed on first use from
// the inverse its EP run kept.
func (op *optimizer) gradient(e *evaluation) []float64 {
	if e.post != nil && !e.gDone {
		grad := e.post.GradientTo(nil)
		for i, j := range op.box.Free {
			if !e.bounds[j] {
				e.g[i] = -grad[j]
			}
		}
		e.gDone = true
	}
	return e.g
}

// infer runs EP for e. A run that does not converge is used as it is
// (counted), after a sequential retry where the schedule is parallel:
// parallel EP can oscillate at extreme hyperparameters, and the
// sequential schedule is the robust fallback.
func (op *optimizer) infer(e *evaluation) (*Posterior, error) {
	p, err := inferContext(op.ctx, e.kern, op.x, op.y, op.sites, &op.ep, true)
	var nc *NotConvergedError
	if errors.As(err, &nc) && op.ep.Schedule == Parallel {
		seq := op.ep
		seq.Schedule = Sequential
		p, err = InferContext(op.ctx, e.kern, op.x, op.y, &nc.Post.Sites, &seq)
		nc.Post.release()
	}
	if errors.As(err, &nc) {
		p, err = nc.Post, nil
		e.nc = true
		op.ncs++
	}
	return p, err
}

// boundNote names the parameters the best point holds at a bound.
func (op *optimizer) boundNote() string {
	names := op.k.ParamNames()
	var at []string
	for j, b := range op.best.bounds {
		if !b {
			continue
		}
		side, v := "upper", op.box.Upper[j]
		if op.best.theta[j] <= op.box.Lower[j] {
			side, v = "lower", op.box.Lower[j]
		}
		at = append(at, fmt.Sprintf("%s at its %s bound %g", names[j], side, v))
	}
	if len(at) == 0 {
		return ""
	}
	return "; stopped at a bound: " + strings.Join(at, ", ") + " (log Z_EP still increases beyond it)"
}
