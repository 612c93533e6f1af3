package calib

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// objective returns Fit's objective of the
// parameters p = [log A, B_1..B_K, logit Eps] (K = 1: and logit Kappa)
// (and its gradient, when grad is not nil): the mean negative
// log-likelihood −log((1−ε)s_t + ε/C) of the true classes (K = 1:
// −log((1−ε)s_t + εκ_t), κ_1 = κ, κ_0 = 1 − κ) plus the weak prior.
// With balance, u_k has the far-field term of Calibration, whose L_k
// depends on ε (and κ).
func objective(z, rho *mat.Dense, truth []int, balance []float64) func(p, grad []float64) float64 {
	return newObjectiveState(z, rho, truth, balance).eval
}

// newObjectiveState returns objective's state with its scratch.
func newObjectiveState(z, rho *mat.Dense, truth []int, balance []float64) *objectiveState {
	_, k := z.Dims()
	o := &objectiveState{z: z, rho: rho, truth: truth, balance: balance, k: k, nc: float64(max(k, 2)), ns: slopeParams(k),
		u: make([]float64, k), e: make([]float64, k), dl: make([]float64, k), dk: make([]float64, k)}
	if o.ns > 0 {
		o.slopes = make([]float64, k)
	}
	return o
}

// objectiveState is objective's function and its scratch.
type objectiveState struct {
	z, rho       *mat.Dense
	truth        []int
	balance      []float64
	k, ns        int
	nc           float64
	u, e, dl, dk []float64
	slopes       []float64
}

// objectivePoint is what objectiveState.point needs of the parameters p.
type objectivePoint struct {
	a, eps, kappa, lk float64
	b, delta          []float64
	c                 *Calibration
	far               []float64
	logKeep           float64
	logUnif           [2]float64
	keep              float64    // 1 − ε
	unif              [2]float64 // exp(logUnif)
}

// eval returns the objective at p and, with grad not nil, its gradient.
func (o *objectiveState) eval(p, grad []float64) float64 {
	n, _ := o.z.Dims()
	q := o.params(p)
	if grad != nil {
		clear(grad)
	}
	var nll float64
	for i := 0; i < n; i++ {
		nll -= o.point(i, &q, p, grad)
	}
	nll /= float64(n)
	return nll + o.ridge(&q, p, grad, n)
}

// params unpacks p: the map, the label-noise share ε and, for K = 1, the
// positive share κ of the unexplained labels.
func (o *objectiveState) params(p []float64) objectivePoint {
	k, ns := o.k, o.ns
	q := objectivePoint{a: math.Exp(p[0]), b: p[1 : k+1], delta: p[len(p)-ns:], kappa: 0.5}
	l := p[k+1]
	q.eps = sigmoid(l)
	if k == 1 {
		q.lk = p[k+2]
		q.kappa = sigmoid(q.lk)
	}
	q.c = &Calibration{A: q.a, B: q.b, Balance: o.balance}
	if ns > 0 {
		for j, d := range q.delta {
			o.slopes[j] = q.a * math.Exp(d)
		}
		q.c.Slopes = o.slopes
	}
	q.far = q.c.farLogits(q.eps, q.kappa, o.dl, o.dk)
	q.logKeep = -softplus(l) // log(1−ε)
	// log of the unexplained share of each class: ε/C, or for K = 1
	// εκ (positive) and ε(1−κ) (negative).
	q.logUnif = [2]float64{-softplus(-l) - math.Log(o.nc), -softplus(-l) - math.Log(o.nc)}
	if k == 1 {
		q.logUnif = [2]float64{-softplus(-l) - softplus(q.lk), -softplus(-l) - softplus(-q.lk)}
	}
	q.keep = math.Exp(q.logKeep)
	q.unif = [2]float64{math.Exp(q.logUnif[0]), math.Exp(q.logUnif[1])}
	return q
}

// point returns the log likelihood log m of point i's label and adds
// −d log m/dp to grad (not nil). m = (1−ε)s_t + u_t, with u_t the
// unexplained share of its class (logUnif), is formed directly: one
// exponential per class and one logarithm per point; the log-domain form
// (logAddExp) is kept for an m too small to represent.
func (o *objectiveState) point(i int, q *objectivePoint, p, grad []float64) float64 {
	k, u, e := o.k, o.u, o.e
	zr, rr := o.z.RawRowView(i), rowOrNil(o.rho, i)
	t := o.truth[i]
	q.c.logitsTo(u, zr, rr, q.far)
	// s = s_t of the logistic part; K = 1: e[0] = 1 − s, computed from
	// the same exponential (sigmoid(−sg·u)); K > 1: e_j = exp(u_j − max u)
	// for the gradient's s_j = e_j/Σe.
	var s, sum, mx float64
	sg := -1.0 // K = 1: the sign of the true class
	if t == 1 {
		sg = 1
	}
	if k == 1 {
		x := sg * u[0]
		ex := math.Exp(-math.Abs(x))
		s, e[0] = 1/(1+ex), ex/(1+ex)
		if x < 0 {
			s, e[0] = e[0], s
		}
	} else {
		mx = floats.Max(u)
		for j, v := range u {
			e[j] = math.Exp(v - mx)
			sum += e[j]
		}
		s = e[t] / sum
	}
	ui := 0
	if k == 1 && t == 1 {
		ui = 1
	}
	m := q.keep*s + q.unif[ui]
	lm := math.Log(m)
	r := q.keep * s / m // the share of m that the logistic part explains
	if !(m > minMixture) {
		logS := -softplus(-sg * u[0])
		if k > 1 {
			logS = u[t] - mx - math.Log(sum) // exact where e[t] underflows
		}
		lm = logAddExp(q.logKeep+logS, q.logUnif[ui])
		r = math.Exp(q.logKeep + logS - lm)
	}
	if grad != nil {
		o.pointGrad(q, p, grad, zr, rr, t, sg, sum, r)
	}
	return lm
}

// minMixture is the smallest likelihood m that point forms directly,
// far above the smallest normal float64: below it, log m is computed in
// the log domain.
const minMixture = 1e-280

// pointGrad adds −d log m/dp of a point (latents zr, shares rr, class t)
// to grad, r being the share of its likelihood m that the logistic part
// explains.
func (o *objectiveState) pointGrad(q *objectivePoint, p, grad, zr, rr []float64, t int, sg, sum, r float64) {
	k, ns, e := o.k, o.ns, o.e
	for j, v := range zr {
		var d float64
		if k == 1 {
			d = -r * sg * e[0] // e[0] = sigmoid(−sg·u)
		} else {
			d = e[j] / sum // d(−log s_t)/du_j = s_j − [j = t]
			if j == t {
				d -= 1
			}
			d *= r
		}
		aj := q.a
		if ns > 0 {
			aj = o.slopes[j]
			grad[len(p)-ns+j] += d * aj * v
		}
		grad[0] += d * aj * v
		w := 1.0
		if q.far != nil && rr != nil {
			w = 1 - rr[j]
			grad[k+1] += d * rr[j] * o.dl[j] * q.eps * (1 - q.eps)
			if k == 1 {
				grad[k+2] += d * rr[j] * o.dk[j] * q.kappa * (1 - q.kappa)
			}
		}
		grad[1+j] += d * w
	}
	grad[k+1] -= (1-q.eps)*(1-r) - q.eps*r
	if k == 1 {
		// −d log m/d logit κ, m = (1−ε)s_t + εκ_t: the
		// unexplained share 1 − r of m times d log κ_t.
		if t == 1 {
			grad[k+2] -= (1 - r) * (1 - q.kappa)
		} else {
			grad[k+2] += (1 - r) * q.kappa
		}
	}
}

// ridge returns the weak Gaussian prior's penalty on p and, with grad not
// nil, scales grad (the sum over n points) to the mean and adds the
// penalty's gradient.
func (o *objectiveState) ridge(q *objectivePoint, p, grad []float64, n int) float64 {
	k, ns := o.k, o.ns
	de := p[k+1] - logit(epsPrior)
	reg := 0.5 * calibrationRidge * (p[0]*p[0] + floats.Dot(q.b, q.b) + de*de + q.lk*q.lk + floats.Dot(q.delta, q.delta))
	if grad != nil {
		floats.Scale(1/float64(n), grad)
		grad[0] += calibrationRidge * p[0]
		for j := range q.b {
			grad[1+j] += calibrationRidge * q.b[j]
		}
		grad[k+1] += calibrationRidge * de
		for j, d := range q.delta {
			grad[len(p)-ns+j] += calibrationRidge * d
		}
		if k == 1 {
			grad[k+2] += calibrationRidge * q.lk
		}
	}
	return reg
}
