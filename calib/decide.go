package calib

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

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
