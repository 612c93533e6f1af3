package passgp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/passgp-fast/passgp-fast/la"
)

// Calibration maps the latents z_k = m_k/√(1+v_k) of K one-against-the-
// rest classifiers (q(y=+1|x) = Φ(z_k), paper eq. 4), and the shares
// ρ_k = v_k/k_k(x, x) of their prior variances that remain at x, to class
// probabilities:
//
//	u_k = A·z_k + (1 − ρ_k)·B[k] + ρ_k·L_k
//	K = 1 (binary):  s(+1|x) = σ(u_1)                   (Platt scaling)
//	K >= 2:          s(k|x) ∝ exp(u_k)                  (multinomial logistic)
//
//	p(k|x) = (1 − Eps)·s(k|x) + Eps/C,  C = max(K, 2) classes,
//	K = 1:   p(+1|x) = (1 − Eps)·s(+1|x) + Eps·Kappa,
//
// with A > 0, so that each class's probability increases with its own
// latent. Eps is the share of labels that no latent explains, as label
// noise gives: a logistic map alone goes to 0 and 1 in the tails, while
// with a fraction ε of flipped labels the true probabilities stay within
// [ε, 1 − ε], so Platt scaling is over-confident there and, to fit the
// tails, too flat in between (docs/method.md). The uniform mixture leaves
// the decision unchanged (it is monotone in s). For K = 1 the unexplained
// labels need not be half positive: Kappa is their positive share, so the
// probabilities stay within [ε·κ, 1 − ε·(1 − κ)], and the decision is
// p(+1|x) > 1/2, which for κ ≠ 1/2 is u_1 above a threshold other than 0
// (or never, or always). A binary classifier whose latent stops ranking
// the points in its upper tail (the held-out labels there mostly
// negative) can then get a ceiling below 1/2 rather than a sigmoid that
// calls that tail positive. It is fitted by FitCalibration on held-out
// latents of the training points (Result.HeldOut), never on test data. The raw
// one-against-the-rest probabilities Φ(z_k) are under-confident away from
// the active set and, normalised over K classes, give too little mass to
// the right class (docs/method.md); the fitted map corrects both.
//
// Balance holds the training labels' class shares π (K = 1: the share of
// positives; K >= 2: one per class, summing to one), and L_k is the logit
// at which p = π: L_k = log((π_k − ε/C)/(1 − ε)) (K = 1: logit((π −
// ε·κ)/(1 − ε))). Where
// a point is far from every active point, its posterior is the prior
// (ρ = 1) and the latent says nothing, so the probability falls back to
// the class balance instead of to whatever the fit made of latent 0 near
// the boundary (docs/method.md). With Balance nil
// (models before format version 6) or ρ = 0 the map is A·z_k + B[k].
type Calibration struct {
	A       float64
	B       []float64
	Eps     float64   // in [0, 1); 0 in model files before format version 4
	Balance []float64 // nil in model files before format version 6
	// Kappa is, for K = 1, the positive share of the labels that the
	// latent does not explain (Eps), in (0, 1); 0 means 1/2, as in model
	// files before format version 8. It is 0 for K >= 2, whose share is
	// Eps/C for every class.
	Kappa float64
	// GateNear and GateFar are the largest correlations with the active
	// set (Binary.NearTo) at and above which a point keeps its latent and
	// share, and at and below which it gets the prior's, z = 0 and ρ = 1
	// (Gate): far from the data the probabilities are then Balance,
	// whatever the kernel's constant makes of the latent there
	// (docs/method.md). FitCalibration leaves both 0, which moves no
	// point, as a calibration without Balance does not; model files of
	// format version 9 and later that carry a gate (10⁻⁴ and 10⁻⁸)
	// apply it at prediction.
	GateNear, GateFar float64
	// Slopes, for K >= 2, are per-class slopes that replace A in u_k
	// (nil: A for every class, as in model files before format version
	// 10).
	Slopes []float64
}

// kappa returns Kappa, 1/2 when it is 0.
func (c *Calibration) kappa() float64 {
	if c.Kappa == 0 {
		return 0.5
	}
	return c.Kappa
}

// balanceFloor bounds the far-field probabilities of Calibration.Balance
// away from 0 and 1, where the logits would be infinite (a class rarer
// than ε/C).
const balanceFloor = 1e-6

// Classes returns K, the number of latents the calibration takes.
func (c *Calibration) Classes() int { return len(c.B) }

// farLogits returns L (Calibration) for the label-noise share eps and,
// for K = 1, its positive share kappa, and dL/dε in dl and (K = 1)
// dL/dκ in dk (when not nil); nil when c has no Balance.
func (c *Calibration) farLogits(eps, kappa float64, dl, dk []float64) []float64 {
	if c.Balance == nil {
		return nil
	}
	k := len(c.B)
	l := make([]float64, k)
	if k == 1 {
		// (1 − ε)σ(L) + εκ = π.
		s := (c.Balance[0] - eps*kappa) / (1 - eps)
		clamped := s < balanceFloor || s > 1-balanceFloor
		s = min(max(s, balanceFloor), 1-balanceFloor)
		l[0] = logit(s)
		if dl != nil {
			dl[0], dk[0] = 0, 0
			if !clamped {
				dl[0] = (c.Balance[0] - kappa) / ((1 - eps) * (1 - eps) * s * (1 - s))
				dk[0] = -eps / ((1 - eps) * s * (1 - s))
			}
		}
		return l
	}
	nc := float64(k)
	for j, pi := range c.Balance {
		s := (pi - eps/nc) / (1 - eps)
		if dl != nil {
			dl[j] = 0
		}
		if s < balanceFloor {
			l[j] = math.Log(balanceFloor)
			continue
		}
		l[j] = math.Log(s)
		if dl != nil {
			dl[j] = -1/(nc*(pi-eps/nc)) + 1/(1-eps)
		}
	}
	return l
}

// logitsTo sets u to the logits u_k of one row of latents z and shares
// rho (nil: 0) for the far-field logits far (nil: no Balance).
func (c *Calibration) logitsTo(u, z, rho, far []float64) {
	for j, v := range z {
		a := c.A
		if c.Slopes != nil {
			a = c.Slopes[j]
		}
		u[j] = a*v + c.B[j]
		if far != nil && rho != nil {
			u[j] += rho[j] * (far[j] - c.B[j])
		}
	}
}

// ProbTo sets row i of dst to the calibrated probabilities of row i of z
// (n×K) and of the prior-variance shares rho (n×K, each in [0, 1]; nil:
// all 0, the map near the active points). For K = 1, dst is n×2:
// [p(−1|x), p(+1|x)], both computed directly (neither as one minus the
// other). Rows sum to one.
func (c *Calibration) ProbTo(dst, z, rho *mat.Dense) {
	n, k := z.Dims()
	if k != len(c.B) {
		panic("passgp: Calibration.ProbTo: z has the wrong number of columns")
	}
	if rho != nil {
		if rn, rk := rho.Dims(); rn != n || rk != k {
			panic("passgp: Calibration.ProbTo: rho and z differ in shape")
		}
	}
	want := max(k, 2)
	if r, cc := dst.Dims(); r != n || cc != want {
		panic("passgp: Calibration.ProbTo: destination has the wrong shape")
	}
	far := c.farLogits(c.Eps, c.kappa(), nil, nil)
	u := make([]float64, k)
	for i := 0; i < n; i++ {
		zr, out := z.RawRowView(i), dst.RawRowView(i)
		c.logitsTo(u, zr, rowOrNil(rho, i), far)
		if k == 1 {
			out[0], out[1] = sigmoid(-u[0]), sigmoid(u[0])
			if c.Eps > 0 {
				kp := c.kappa()
				out[0] = (1-c.Eps)*out[0] + c.Eps*(1-kp)
				out[1] = (1-c.Eps)*out[1] + c.Eps*kp
			}
			continue
		}
		lse := floats.LogSumExp(u)
		for j := range out {
			out[j] = math.Exp(u[j] - lse)
		}
		if c.Eps > 0 {
			for j := range out {
				out[j] = (1-c.Eps)*out[j] + c.Eps/float64(want)
			}
		}
	}
}

// rowOrNil returns row i of m, or nil when m is nil.
func rowOrNil(m *mat.Dense, i int) []float64 {
	if m == nil {
		return nil
	}
	return m.RawRowView(i)
}

// Decide returns the class of largest calibrated probability for one row
// of latents z and prior-variance shares rho (nil: 0) (K = 1: 1 for the
// positive class, 0 otherwise). DecideTo does the same for many rows.
func (c *Calibration) Decide(z, rho []float64) int {
	return c.decide(make([]float64, len(z)), z, rho, c.farLogits(c.Eps, c.kappa(), nil, nil), c.threshold())
}

// DecideTo sets dst[i] to Decide of row i of z and rho (n×K; rho nil:
// all 0), computing the far-field logits and the binary threshold once.
func (c *Calibration) DecideTo(dst []int, z, rho *mat.Dense) {
	n, k := z.Dims()
	far, thr := c.farLogits(c.Eps, c.kappa(), nil, nil), c.threshold()
	u := make([]float64, k)
	for i := range dst[:n] {
		dst[i] = c.decide(u, z.RawRowView(i), rowOrNil(rho, i), far, thr)
	}
}

// decide is Decide with the logits' workspace u, the far-field logits far
// and the binary threshold thr (threshold) given.
func (c *Calibration) decide(u, z, rho, far []float64, thr float64) int {
	c.logitsTo(u, z, rho, far)
	if len(z) == 1 {
		if u[0] > thr {
			return 1
		}
		return 0
	}
	return floats.MaxIdx(u)
}

// Range returns the smallest and largest probability that the map can
// give a class: (1 − Eps)·0 + Eps·κ and 1 − Eps·(1 − κ) for the
// positive class of a binary map, Eps/C and 1 − Eps + Eps/C for any
// class otherwise. A binary map whose range lies on one side of 1/2
// decides one class everywhere (a fitted κ far from 1/2 can give one).
func (c *Calibration) Range() (lo, hi float64) {
	if len(c.B) == 1 {
		kp := c.kappa()
		return c.Eps * kp, 1 - c.Eps*(1-kp)
	}
	nc := float64(max(len(c.B), 2))
	return c.Eps / nc, 1 - c.Eps + c.Eps/nc
}

// threshold returns the logit above which p(+1|x) > 1/2 for K = 1:
// σ(u) > (1/2 − εκ)/(1 − ε); 0 for κ = 1/2, +Inf when no probability
// reaches 1/2 (1 − ε(1 − κ) <= 1/2), −Inf when every one exceeds it.
func (c *Calibration) threshold() float64 {
	kp := c.kappa()
	if c.Eps == 0 || kp == 0.5 {
		return 0
	}
	s := (0.5 - c.Eps*kp) / (1 - c.Eps)
	switch {
	case s >= 1:
		return math.Inf(1)
	case s <= 0:
		return math.Inf(-1)
	}
	return logit(s)
}

// calibrationRidge is the weight of a weak Gaussian prior on the biases,
// on log A and on logit Eps about logit(epsPrior) (in units of the mean
// log-likelihood per point): it keeps the fit finite when the held-out
// latents separate the classes or explain every label.
const (
	calibrationRidge = 1e-4
	epsPrior         = 1e-3
)

// calibrationGradTol is the fit's stopping threshold on the largest
// gradient component of the mean negative log-likelihood: tighter, and
// the first start on the noisy 10-class task's latents (N = 20,000)
// reaches no better minimum (A to 6 digits, the objective to 1e-10) but
// ends in a failed line search after three times the evaluations
// (docs/performance.md).
const calibrationGradTol = 1e-6

// calibrationSteepA and calibrationSteepEps are FitCalibration's second
// start: a steep map with a label-noise share of 10%, near the better
// optimum of the noisy 3-class task (A 4.9, ε 0.16) and of
// TestFitCalibrationLabelNoise's data (A 3.1, ε 0.1).
const (
	calibrationSteepA   = 4
	calibrationSteepEps = 0.1
)

// calibrationBounded are FitCalibration's further starts for K = 1:
// [A, ε, κ] of maps whose probabilities stop near 1/2, from above (a
// ceiling of 0.55) or from below (a floor of 0.45). Where the latent's
// upper tail is mostly negative, the best map has a ceiling below 1/2,
// and L-BFGS from a symmetric start stays at a sigmoid that reaches 1
// (TestFitCalibrationTail: mean NLL 0.390 against 0.361).
var calibrationBounded = [][3]float64{{calibrationSteepA, 0.5, 0.1}, {calibrationSteepA, 0.5, 0.9}}

// FitCalibration fits a Calibration to the held-out latents z (N×K) of
// the training points, the shares rho (N×K) of their prior variances
// that those held-out predictions leave (nil: a map of z alone, without
// Balance), and their true classes truth (K = 1: 1 for the positive
// class, 0 for the negative; K >= 2: the column of the true class) by
// maximum likelihood, with a weak prior that keeps it finite on separable
// data; gonum/optimize's L-BFGS minimises it over (log A, B, logit Eps,
// and for K = 1 logit Kappa) from two starts (K = 1: four,
// calibrationBounded), and the lowest minimum is kept. Balance is the
// class shares of truth. For K >= 2 every class has its own slope
// (Slopes), the vector scaling of Guo et al. (2017): the K one-against-
// the-rest latents come from K posteriors, of different θ and, where the
// FITC pass is kept for some classes only, of different kinds, so their
// scales differ. On the development protocol a slope per class against
// one shared slope (kept before only where the kinds differ) is equal on
// gen-multiclass, Vehicle, Glass and USPS, better in NLP by more than one
// standard error on DNA, Satellite and Shuttle and worse on Vowel
// (docs/method.md).
func FitCalibration(z, rho *mat.Dense, truth []int) (*Calibration, error) {
	_, k := z.Dims()
	balance, err := checkCalibrationInput(z, rho, truth)
	if err != nil {
		return nil, err
	}
	x, err := minimizeCalibration(z, rho, truth, balance)
	if err != nil {
		return nil, err
	}
	c := &Calibration{A: math.Exp(x[0]), B: slices.Clone(x[1 : k+1]), Eps: sigmoid(x[k+1]), Balance: balance}
	if k == 1 {
		c.Kappa = sigmoid(x[k+2])
	}
	if ns := slopeParams(k); ns > 0 {
		c.Slopes = make([]float64, k)
		for j, d := range x[len(x)-ns:] {
			c.Slopes[j] = c.A * math.Exp(d)
		}
	}
	return c, nil
}

// checkCalibrationInput checks FitCalibration's input and returns the
// class shares of truth (nil without shares rho).
func checkCalibrationInput(z, rho *mat.Dense, truth []int) ([]float64, error) {
	n, k := z.Dims()
	if n != len(truth) || n == 0 {
		return nil, fmt.Errorf("passgp: FitCalibration: %d latents and %d classes", n, len(truth))
	}
	nc := max(k, 2)
	for i, t := range truth {
		if t < 0 || t >= nc {
			return nil, fmt.Errorf("passgp: FitCalibration: class %d of point %d out of range", t, i)
		}
	}
	if rho == nil {
		return nil, nil
	}
	if rn, rk := rho.Dims(); rn != n || rk != k {
		return nil, fmt.Errorf("passgp: FitCalibration: shares %d×%d for latents %d×%d", rn, rk, n, k)
	}
	if !isFinite(rho.RawMatrix().Data) {
		return nil, errors.New("passgp: FitCalibration: a prior-variance share is not finite")
	}
	return classShares(truth, k), nil
}

// minimizeCalibration returns the parameters of the calibration's
// likelihood minimum (calibrationObjective).
func minimizeCalibration(z, rho *mat.Dense, truth []int, balance []float64) ([]float64, error) {
	_, k := z.Dims()
	// With label noise the likelihood has two optima: a steep map with a
	// large label-noise share ε and a flat one with a small ε. L-BFGS
	// from A = 1, ε = epsPrior alone finds either, depending on small
	// changes of the latents (noisy 3-class task: A 4.65, ε 0.156 or A
	// 1.87, ε 0.076, held-out ECE 0.4% or 6.3%), so it also starts from
	// a steep, noisy map; a binary map also starts from maps bounded near
	// 1/2 (calibrationBounded). The fits are independent (each has its
	// objective's buffers) and run side by side when the thread budget
	// allows; the lowest minimum is kept, the earliest start's on a tie.
	// Each start is [A, ε, κ]; κ is used for K = 1 only.
	starts := [][3]float64{{1, epsPrior, 0.5}, {calibrationSteepA, calibrationSteepEps, 0.5}}
	if k == 1 {
		starts = append(starts, calibrationBounded...)
	}
	results := make([]*optimize.Result, len(starts))
	errs := make([]error, len(starts))
	fit := func(j int) {
		obj := calibrationObjective(z, rho, truth, balance)
		prob := optimize.Problem{
			Func: func(p []float64) float64 { return obj(p, nil) },
			Grad: func(g, p []float64) { obj(p, g) },
		}
		p0 := make([]float64, calibrationParams(k)+slopeParams(k))
		p0[0], p0[k+1] = math.Log(starts[j][0]), logit(starts[j][1])
		if k == 1 {
			p0[k+2] = logit(starts[j][2])
		}
		results[j], errs[j] = optimize.Minimize(prob, p0, &optimize.Settings{GradientThreshold: calibrationGradTol, MajorIterations: 500}, &optimize.LBFGS{})
	}
	forEach(la.Workers(len(starts)), len(starts), func(_, j int) { fit(j) })
	var best *optimize.Result
	var firstErr error
	for j, res := range results {
		if errs[j] != nil && (res == nil || !isFinite(res.X)) {
			firstErr = cmp.Or(firstErr, errs[j])
			continue
		}
		if isFinite(res.X) && (best == nil || res.F < best.F) {
			best = res
		}
	}
	if best == nil && firstErr != nil {
		return nil, fmt.Errorf("passgp: FitCalibration: %w", firstErr)
	}
	if best == nil {
		return nil, errors.New("passgp: FitCalibration: the fit did not stay finite")
	}
	return best.X, nil
}

// slopeParams returns the number of per-class log-slope offsets δ_k that
// FitCalibration fits for K latents, after calibrationParams' parameters:
// one per class for K >= 2 (Calibration.Slopes = A·exp(δ_k)), none for
// K = 1. The weak prior on log A and on the δ_k shares a common scale
// between them, so A need not be the slopes' centre.
func slopeParams(k int) int {
	if k >= 2 {
		return k
	}
	return 0
}

// calibrationParams returns the number of parameters FitCalibration fits
// for K latents: log A, B_1..B_K and logit Eps, and for K = 1 logit Kappa.
func calibrationParams(k int) int {
	if k == 1 {
		return k + 3
	}
	return k + 2
}

// classShares returns Calibration.Balance for the classes truth of K
// latents: the share of class 1 for K = 1, of every class otherwise.
func classShares(truth []int, k int) []float64 {
	cnt := make([]float64, max(k, 2))
	for _, t := range truth {
		cnt[t]++
	}
	floats.Scale(1/float64(len(truth)), cnt)
	if k == 1 {
		return cnt[1:]
	}
	return cnt
}

// calibrationObjective returns FitCalibration's objective of the
// parameters p = [log A, B_1..B_K, logit Eps] (K = 1: and logit Kappa)
// (and its gradient, when grad is not nil): the mean negative
// log-likelihood −log((1−ε)s_t + ε/C) of the true classes (K = 1:
// −log((1−ε)s_t + εκ_t), κ_1 = κ, κ_0 = 1 − κ) plus the weak prior.
// With balance, u_k has the far-field term of Calibration, whose L_k
// depends on ε (and κ).
func calibrationObjective(z, rho *mat.Dense, truth []int, balance []float64) func(p, grad []float64) float64 {
	_, k := z.Dims()
	o := &calObjective{z: z, rho: rho, truth: truth, balance: balance, k: k, nc: float64(max(k, 2)), ns: slopeParams(k),
		u: make([]float64, k), e: make([]float64, k), dl: make([]float64, k), dk: make([]float64, k)}
	if o.ns > 0 {
		o.slopes = make([]float64, k)
	}
	return o.eval
}

// calObjective is calibrationObjective's function and its scratch.
type calObjective struct {
	z, rho       *mat.Dense
	truth        []int
	balance      []float64
	k, ns        int
	nc           float64
	u, e, dl, dk []float64
	slopes       []float64
}

// calPoint is what calObjective.point needs of the parameters p.
type calPoint struct {
	a, eps, kappa, lk float64
	b, delta          []float64
	c                 *Calibration
	far               []float64
	logKeep           float64
	logUnif           [2]float64
}

// eval returns the objective at p and, with grad not nil, its gradient.
func (o *calObjective) eval(p, grad []float64) float64 {
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
func (o *calObjective) params(p []float64) calPoint {
	k, ns := o.k, o.ns
	q := calPoint{a: math.Exp(p[0]), b: p[1 : k+1], delta: p[len(p)-ns:], kappa: 0.5}
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
	return q
}

// point returns the log likelihood log m of point i's label and adds
// −d log m/dp to grad (not nil).
func (o *calObjective) point(i int, q *calPoint, p, grad []float64) float64 {
	k, u, e := o.k, o.u, o.e
	zr, rr := o.z.RawRowView(i), rowOrNil(o.rho, i)
	t := o.truth[i]
	q.c.logitsTo(u, zr, rr, q.far)
	// log s_t of the logistic part, then r = (1−ε)s_t/m, the
	// share of the mixture m = (1−ε)s_t + ε/C that it explains;
	// d_j = d(−log m)/du_j.
	var logS, sum float64
	sg := -1.0 // K = 1: the sign of the true class
	if t == 1 {
		sg = 1
	}
	if k == 1 {
		logS = -softplus(-sg * u[0])
	} else {
		// log-sum-exp, keeping e_j = exp(u_j − max u) for the
		// gradient's s_j = e_j/Σe: one exponential per class.
		mx := floats.Max(u)
		for j, v := range u {
			e[j] = math.Exp(v - mx)
			sum += e[j]
		}
		logS = u[t] - mx - math.Log(sum)
	}
	lu := q.logUnif[0]
	if k == 1 && t == 1 {
		lu = q.logUnif[1]
	}
	lm := logAddExp(q.logKeep+logS, lu)
	if grad != nil {
		o.pointGrad(q, p, grad, zr, rr, t, sg, sum, math.Exp(q.logKeep+logS-lm))
	}
	return lm
}

// pointGrad adds −d log m/dp of a point (latents zr, shares rr, class t)
// to grad, r being the share of its likelihood m that the logistic part
// explains.
func (o *calObjective) pointGrad(q *calPoint, p, grad, zr, rr []float64, t int, sg, sum, r float64) {
	k, ns, u, e := o.k, o.ns, o.u, o.e
	for j, v := range zr {
		var d float64
		if k == 1 {
			d = -r * sg * sigmoid(-sg*u[0])
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
func (o *calObjective) ridge(q *calPoint, p, grad []float64, n int) float64 {
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

// logAddExp returns log(e^x + e^y) without overflow.
func logAddExp(x, y float64) float64 {
	if x < y {
		x, y = y, x
	}
	return x + math.Log1p(math.Exp(y-x))
}

func logit(p float64) float64 { return math.Log(p / (1 - p)) }

func sigmoid(u float64) float64 {
	if u >= 0 {
		return 1 / (1 + math.Exp(-u))
	}
	e := math.Exp(u)
	return e / (1 + e)
}

// softplus returns log(1 + e^u) without overflow.
func softplus(u float64) float64 {
	if u > 0 {
		return u + math.Log1p(math.Exp(-u))
	}
	return math.Log1p(math.Exp(u))
}

func isFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// MeanNLL returns −mean_i log p(truth_i | z_i, rho_i) under c (rho nil:
// all 0), computed in log space (exact where the probabilities
// underflow). truth is as in FitCalibration.
func (c *Calibration) MeanNLL(z, rho *mat.Dense, truth []int) float64 {
	n, _ := z.Dims()
	var s float64
	c.eachNLL(z, rho, truth, func(_ int, v float64) { s += v })
	return s / float64(n)
}

// NLLTo sets dst[i] to −log p(truth_i | z_i, rho_i) under c, as MeanNLL.
func (c *Calibration) NLLTo(dst []float64, z, rho *mat.Dense, truth []int) {
	if n, _ := z.Dims(); len(dst) != n {
		panic("passgp: Calibration.NLLTo: destination has the wrong length")
	}
	c.eachNLL(z, rho, truth, func(i int, v float64) { dst[i] = v })
}

// eachNLL calls f(i, −log p(truth_i | z_i, rho_i)) for every row i in
// order.
func (c *Calibration) eachNLL(z, rho *mat.Dense, truth []int, f func(int, float64)) {
	n, k := z.Dims()
	u := make([]float64, k)
	far := c.farLogits(c.Eps, c.kappa(), nil, nil)
	for i := 0; i < n; i++ {
		c.logitsTo(u, z.RawRowView(i), rowOrNil(rho, i), far)
		var logS float64
		noise := c.Eps / float64(max(k, 2)) // the true class's unexplained share
		if k == 1 {
			if truth[i] == 1 {
				logS = -softplus(-u[0])
				noise = c.Eps * c.kappa()
			} else {
				logS = -softplus(u[0])
				noise = c.Eps * (1 - c.kappa())
			}
		} else {
			logS = u[truth[i]] - floats.LogSumExp(u)
		}
		if c.Eps > 0 {
			logS = logAddExp(math.Log1p(-c.Eps)+logS, math.Log(noise))
		}
		f(i, -logS)
	}
}

// CalibrateBinary fits the Platt calibration of a trained binary
// classifier b on its held-out latents on the training data x, y (±1): the
// fit Train makes (Result.Calibration), for a classifier trained earlier.
// It has no image geometry: for a classifier of an invariance stage it
// uses the plain cavities, which still see each image's translations;
// Train and TrainAugmented leave those out (groupHeldOut).
func CalibrateBinary(b *Binary, x *mat.Dense, y []float64) (*Calibration, error) {
	return CalibrateBinaryRows(b, DenseRows(x), y)
}

// CalibrateBinaryRows is CalibrateBinary on inputs read through Rows.
func CalibrateBinaryRows(b *Binary, x Rows, y []float64) (*Calibration, error) {
	n, _ := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("passgp: CalibrateBinary: %d labels for %d rows", len(y), n)
	}
	z, rho, _, err := heldOutLatents(context.Background(), &runner{threads: la.Threads()}, b, x, nil)
	if err != nil {
		return nil, err
	}
	return FitBinaryCalibration(z, rho, y)
}

// FitBinaryCalibration fits the Platt calibration of a binary classifier
// on the held-out latents z and prior-variance shares rho of its training
// points, whose labels are y (±1): the fit Train makes from
// Result.HeldOut and HeldOutShare, for latents stored with a classifier
// (a checkpoint's, say).
func FitBinaryCalibration(z, rho, y []float64) (*Calibration, error) {
	n := len(y)
	if len(z) != n || len(rho) != n || n == 0 {
		return nil, fmt.Errorf("passgp: FitBinaryCalibration: %d latents and %d shares for %d labels", len(z), len(rho), n)
	}
	return FitCalibration(mat.NewDense(n, 1, z), mat.NewDense(n, 1, rho), binaryTruth(y))
}
