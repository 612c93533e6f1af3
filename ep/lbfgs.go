package ep

import "math"

// This file holds a small L-BFGS minimiser (Nocedal & Wright, Numerical
// Optimization, 2nd ed., Alg. 7.4 with the strong-Wolfe line search of
// Alg. 3.5/3.6). gonum/optimize would do, but its package imports
// gonum/stat/distmv and with it golang.org/x/tools, which is not among this
// module's dependencies.

// objective evaluates f and its gradient at x (g has len(x)); ok is false
// when f cannot be evaluated there (treated as +Inf).
type objective func(x, g []float64) (f float64, ok bool)

type lbfgsSettings struct {
	maxEvals int        // function evaluations
	evals    func() int // optional: the evaluations spent so far (default: calls of fn)
	gradTol  float64    // stop when max |g_i| < gradTol
	funcTol  float64    // stop when f decreased by less than funcTol over funcIter iterations
	funcIter int
	store    int
	project  func(x []float64) // optional: maps an accepted point into the feasible box
}

type lbfgsResult struct {
	x      []float64
	f      float64
	g      []float64
	evals  int
	iters  int
	status string
}

func lbfgs(fn objective, x0 []float64, s lbfgsSettings) lbfgsResult {
	n := len(x0)
	if s.store == 0 {
		s.store = 10
	}
	if s.funcIter == 0 {
		s.funcIter = 5
	}
	r := lbfgsResult{x: append([]float64(nil), x0...), g: make([]float64, n)}
	eval := func(x, g []float64) float64 {
		r.evals++
		f, ok := fn(x, g)
		if !ok || math.IsNaN(f) {
			return math.Inf(1)
		}
		return f
	}
	if s.evals == nil {
		s.evals = func() int { return r.evals }
	}
	r.f = eval(r.x, r.g)
	if math.IsInf(r.f, 1) {
		r.status = "objective not defined at the start"
		return r
	}
	var (
		sHist, yHist [][]float64
		rho          []float64
		d            = make([]float64, n)
		xt           = make([]float64, n)
		gt           = make([]float64, n)
		alphaBuf     = make([]float64, s.store)
		fHist        = []float64{r.f}
	)
	for {
		if maxAbs(r.g) < s.gradTol {
			r.status = "gradient below tolerance"
			return r
		}
		if s.evals() >= s.maxEvals {
			r.status = "evaluation limit reached"
			return r
		}
		// Two-loop recursion: d = -H g.
		copy(d, r.g)
		k := len(sHist)
		for i := k - 1; i >= 0; i-- {
			alphaBuf[i] = rho[i] * dot(sHist[i], d)
			axpy(-alphaBuf[i], yHist[i], d)
		}
		if k > 0 {
			gamma := dot(sHist[k-1], yHist[k-1]) / dot(yHist[k-1], yHist[k-1])
			scal(gamma, d)
		}
		for i := 0; i < k; i++ {
			b := rho[i] * dot(yHist[i], d)
			axpy(alphaBuf[i]-b, sHist[i], d)
		}
		scal(-1, d)
		gd := dot(r.g, d)
		if !(gd < 0) {
			sHist, yHist, rho = nil, nil, nil
			copy(d, r.g)
			scal(-1, d)
			gd = -dot(r.g, r.g)
		}
		a0 := 1.0
		if k == 0 {
			a0 = math.Min(1, 1/maxAbs(r.g))
		}
		phi := func(a float64) (float64, float64) {
			copy(xt, r.x)
			axpy(a, d, xt)
			f := eval(xt, gt)
			return f, dot(gt, d)
		}
		a, fa, ok := wolfe(phi, r.f, gd, a0, s.maxEvals-s.evals())
		if !ok {
			if k > 0 { // retry along the steepest descent direction
				sHist, yHist, rho = nil, nil, nil
				continue
			}
			r.status = "line search failed"
			return r
		}
		// The accepted point is the last one phi evaluated only if the
		// line search ended there; re-evaluate when needed.
		copy(xt, r.x)
		axpy(a, d, xt)
		if s.project != nil {
			s.project(xt)
		}
		fa = eval(xt, gt)
		sv := make([]float64, n)
		yv := make([]float64, n)
		for i := range sv {
			sv[i] = xt[i] - r.x[i]
			yv[i] = gt[i] - r.g[i]
		}
		copy(r.x, xt)
		copy(r.g, gt)
		r.f = fa
		r.iters++
		if sy := dot(sv, yv); sy > 1e-12*math.Sqrt(dot(sv, sv)*dot(yv, yv)) && sy > 0 {
			if len(sHist) == s.store {
				sHist, yHist, rho = sHist[1:], yHist[1:], rho[1:]
			}
			sHist = append(sHist, sv)
			yHist = append(yHist, yv)
			rho = append(rho, 1/sy)
		}
		fHist = append(fHist, r.f)
		if m := len(fHist); m > s.funcIter {
			if fHist[m-1-s.funcIter]-r.f <= s.funcTol {
				r.status = "function value converged"
				return r
			}
		}
	}
}

// wolfe finds a step satisfying the strong Wolfe conditions
// (c1 = 1e-4, c2 = 0.9) along a descent direction, phi(a) returning f and
// the directional derivative at step a.
func wolfe(phi func(float64) (float64, float64), f0, d0, a1 float64, budget int) (float64, float64, bool) {
	const c1, c2 = 1e-4, 0.9
	aPrev, fPrev, dPrev := 0.0, f0, d0
	a := a1
	for i := 0; i < budget; i++ {
		f, d := phi(a)
		budget--
		if f > f0+c1*a*d0 || (i > 0 && f >= fPrev) {
			return zoom(phi, f0, d0, aPrev, fPrev, dPrev, a, f, d, budget)
		}
		if math.Abs(d) <= -c2*d0 {
			return a, f, true
		}
		if d >= 0 {
			return zoom(phi, f0, d0, a, f, d, aPrev, fPrev, dPrev, budget)
		}
		aPrev, fPrev, dPrev = a, f, d
		a *= 2
	}
	return 0, f0, false
}

func zoom(phi func(float64) (float64, float64), f0, d0, lo, flo, dlo, hi, fhi, dhi float64, budget int) (float64, float64, bool) {
	const c1, c2 = 1e-4, 0.9
	for j := 0; j < min(budget, 10); j++ {
		a := cubicMin(lo, flo, dlo, hi, fhi, dhi)
		f, d := phi(a)
		if f > f0+c1*a*d0 || f >= flo {
			hi, fhi, dhi = a, f, d
			continue
		}
		if math.Abs(d) <= -c2*d0 {
			return a, f, true
		}
		if d*(hi-lo) >= 0 {
			hi, fhi, dhi = lo, flo, dlo
		}
		lo, flo, dlo = a, f, d
	}
	if lo > 0 && flo < f0 {
		return lo, flo, true // sufficient decrease without the curvature condition
	}
	return 0, f0, false
}

// cubicMin returns the minimiser of the cubic interpolating f and f' at a
// and b, safeguarded to the middle 80% of the interval (bisection if the
// cubic has no minimum there or f is not finite).
func cubicMin(a, fa, da, b, fb, db float64) float64 {
	lo, hi := math.Min(a, b), math.Max(a, b)
	w := hi - lo
	mid := (a + b) / 2
	if math.IsInf(fa, 0) || math.IsInf(fb, 0) || math.IsNaN(fa+fb+da+db) {
		return mid
	}
	d1 := da + db - 3*(fa-fb)/(a-b)
	disc := d1*d1 - da*db
	if disc < 0 {
		return mid
	}
	d2 := math.Copysign(math.Sqrt(disc), b-a)
	x := b - (b-a)*(db+d2-d1)/(db-da+2*d2)
	if math.IsNaN(x) || x < lo+0.1*w || x > hi-0.1*w {
		return mid
	}
	return x
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

func axpy(a float64, x, y []float64) {
	for i, v := range x {
		y[i] += a * v
	}
}

func scal(a float64, x []float64) {
	for i := range x {
		x[i] *= a
	}
}

func maxAbs(x []float64) float64 {
	var m float64
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}
