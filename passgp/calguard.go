package passgp

import (
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// guardMajority returns c, a binary calibration fitted to the held-out
// latents z, shares rho (nil: none) and classes truth, unless its
// decisions on them err more often than always deciding the majority
// class does. Then the latents, as the map reads them, cannot tell where
// the minority class is the more probable one, and it returns the
// likeliest map whose probabilities of the minority class stay below
// 1/2 instead: A, B and the mixture refitted with a ceiling below 1/2 (a
// floor above 1/2 when the positives are the majority), so that every
// decision is the majority class and the probabilities still rank the
// points. The decisions a calibration implies should never err more
// than the majority class; on IJCNN, fPASS-GP at M = 300 (seed
// 1) had a held-out error of 10.09% against a majority rate of 9.71%
// after the fit, and 11.41% on the test set against 9.50% (docs/method.md). With balance (c.Balance) the far field is kept.
func guardMajority(c *Calibration, z, rho *mat.Dense, truth []int) *Calibration {
	n := len(truth)
	pos := 0
	for _, t := range truth {
		pos += t
	}
	if decisionError(c, z, rho, truth) <= float64(min(pos, n-pos))/float64(n) {
		return c
	}
	// Fit with the majority as the negative class: flip the latents and
	// labels when the positives are the majority; a map of (−z, 1 − t)
	// with (B', κ') is the map of (z, t) with (−B', 1 − κ').
	flip := pos > n-pos
	zf, tf, bal := z, truth, c.Balance
	if flip {
		zf = mat.NewDense(n, 1, nil)
		zf.Scale(-1, z)
		tf = make([]int, n)
		for i, t := range truth {
			tf[i] = 1 - t
		}
		if bal != nil {
			bal = []float64{1 - bal[0]}
		}
	}
	f := ceilingObjective(calibrationObjective(zf, rho, tf, bal, false))
	prob := optimize.Problem{
		Func: func(q []float64) float64 { return f(q, nil) },
		Grad: func(g, q []float64) { f(q, g) },
	}
	b := c.B[0]
	if flip {
		b = -b
	}
	q0 := []float64{math.Log(c.A), b, logit(0.9), logit(0.1)} // c = 0.45, a = 0.045
	// A stop short of the gradient threshold (a failed line search) still
	// leaves a map within the bounds; only a non-finite one is refused.
	res, _ := optimize.Minimize(prob, q0, &optimize.Settings{GradientThreshold: calibrationGradTol, MajorIterations: 500}, &optimize.LBFGS{})
	if res == nil || !isFinite(res.X) {
		return c
	}
	inner := make([]float64, 4)
	ceilingParams(inner, res.X)
	g := &Calibration{A: math.Exp(inner[0]), B: []float64{inner[1]}, Eps: sigmoid(inner[2]), Kappa: sigmoid(inner[3]), Balance: c.Balance}
	if flip {
		g.B[0], g.Kappa = -g.B[0], 1-g.Kappa
	}
	return g
}

// ceilingObjective returns the binary calibration objective obj (of
// [log A, B, logit ε, logit κ], calibrationObjective) as a function of q =
// [log A, B, s1, s2], which keep the probabilities within [a, c] with
// ceiling c = σ(s1)/2 < 1/2 and floor a = c·σ(s2): ε = 1 − (c − a), κ =
// a/ε. The gradient follows by the chain rule.
func ceilingObjective(obj func(p, grad []float64) float64) func(q, grad []float64) float64 {
	inner, ig := make([]float64, 4), make([]float64, 4)
	return func(q, grad []float64) float64 {
		dle, dlk := ceilingParams(inner, q)
		if grad == nil {
			return obj(inner, nil)
		}
		f := obj(inner, ig)
		grad[0], grad[1] = ig[0], ig[1]
		for j := range 2 {
			grad[2+j] = ig[2]*dle[j] + ig[3]*dlk[j]
		}
		return f
	}
}

// ceilingParams sets p = [log A, B, logit ε, logit κ] from q (see
// ceilingObjective) and returns d logit ε/d(s1, s2) and d logit κ/d(s1,
// s2).
func ceilingParams(p, q []float64) (dle, dlk [2]float64) {
	s1, s2 := sigmoid(q[2]), sigmoid(q[3])
	ceil := s1 / 2
	a := ceil * s2
	eps := 1 - (ceil - a)
	kappa := a / eps
	p[0], p[1], p[2], p[3] = q[0], q[1], logit(eps), logit(kappa)
	dc := [2]float64{ceil * (1 - s1), 0}
	da := [2]float64{s2 * dc[0], ceil * s2 * (1 - s2)}
	for j := range 2 {
		de := da[j] - dc[j]
		dk := (da[j]*eps - a*de) / (eps * eps)
		dle[j] = de / (eps * (1 - eps))
		dlk[j] = dk / (kappa * (1 - kappa))
	}
	return dle, dlk
}

// decisionError returns the fraction of the rows of z (shares rho, nil:
// none) on which c's decision misses the class truth.
func decisionError(c *Calibration, z, rho *mat.Dense, truth []int) float64 {
	dec := make([]int, len(truth))
	c.DecideTo(dec, z, rho)
	return missRate(len(truth), func(i int) bool { return dec[i] != truth[i] })
}
