package calib

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// gateWeight returns the far-field weight of a largest correlation c: 0
// at or above hi, 1 at or below lo, and a smooth step in log c between
// them, so that probabilities stay continuous in x. A NaN moves nothing.
func gateWeight(c, hi, lo float64) float64 {
	switch {
	case !(c < hi):
		return 0
	case c <= lo:
		return 1
	}
	t := math.Log(c/lo) / math.Log(hi/lo)
	return 1 - t*t*(3-2*t)
}

// gate moves z[i] and rho[i] towards the prior's (0, 1) by the weight g
// of near[i] between the correlations hi and lo: z ← (1 − g)z, ρ ← ρ +
// g(1 − ρ). A weight of 0 leaves them bit for bit.
func gate(z, rho, near []float64, hi, lo float64) {
	for i, c := range near {
		if g := gateWeight(c, hi, lo); g > 0 {
			z[i] *= 1 - g
			rho[i] += g * (1 - rho[i])
		}
	}
}

// Gated reports whether c moves points far from the data (Gate): it has a
// gate (GateNear > 0: only model files written by older builds carry one;
// training leaves it at 0) and a Balance for
// the moved points to fall back to. Predictions compute the correlations
// Gate needs only then.
func (c *Calibration) Gated() bool { return c.GateNear > 0 && c.Balance != nil }

// Gate returns c's inputs (ProbTo, DecideTo, MeanNLL) for the latents z,
// prior-variance shares rho and largest correlations near (n×K each,
// from model.Model.LatentShareNearTo): each latent and share moved
// towards the prior's z = 0 and ρ = 1 by the weight g of its correlation,
// 0 from GateNear up and 1 from GateFar down, (1 − g)z and ρ + g(1 − ρ),
// so that far from the data the probabilities are the class balance
// (Balance). Where no weight is positive, near is nil or c has no gate
// (model files before format version 9) or no Balance, it returns z and
// rho themselves; otherwise new matrices, so that the raw latents (the
// paper's q = Φ(z)) stay as they were.
func (c *Calibration) Gate(z, rho, near *mat.Dense) (cz, crho *mat.Dense) {
	if near == nil || !c.Gated() {
		return z, rho
	}
	n, k := z.Dims()
	if nn, nk := near.Dims(); nn != n || nk != k {
		panic("calib: Calibration.Gate: near and z differ in shape")
	}
	if rho == nil {
		panic("calib: Calibration.Gate: correlations without shares")
	}
	if rn, rk := rho.Dims(); rn != n || rk != k {
		panic("calib: Calibration.Gate: rho and z differ in shape")
	}
	// Near the data, as almost always, nothing moves and nothing is
	// copied.
	far := false
	for i := 0; i < n && !far; i++ {
		far = slices.ContainsFunc(near.RawRowView(i), func(v float64) bool { return gateWeight(v, c.GateNear, c.GateFar) > 0 })
	}
	if !far {
		return z, rho
	}
	cz, crho = mat.DenseCopyOf(z), mat.DenseCopyOf(rho)
	for i := 0; i < n; i++ {
		gate(cz.RawRowView(i), crho.RawRowView(i), near.RawRowView(i), c.GateNear, c.GateFar)
	}
	return cz, crho
}
