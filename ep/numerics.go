package ep

import "math"

const (
	sqrt2      = math.Sqrt2
	lnSqrt2Pi  = 0.91893853320467274178032973640561764 // log(sqrt(2π))
	invSqrt2Pi = 0.39894228040143267793994605993438187 // 1/sqrt(2π)
	// millsSwitch is the argument below which Phi and the inverse Mills
	// ratio are evaluated through the continued fraction of Mills' ratio
	// instead of erfc; erfc itself stays accurate far beyond it, but
	// N(z) and Phi(z) underflow together for z < -37.
	millsSwitch = -20.0
)

// Phi is the standard normal cumulative distribution function.
func Phi(z float64) float64 {
	return 0.5 * math.Erfc(-z/sqrt2)
}

// LogPhi returns log Phi(z), accurate in both tails: for z > 0 through
// log1p of the upper tail, for z < -20 through Mills' ratio
// (log Phi(z) = log N(z) + log R(-z)), so that it is finite for every
// finite z (about -z²/2 for z -> -∞).
func LogPhi(z float64) float64 {
	switch {
	case math.IsNaN(z):
		return z
	case z > 0:
		return math.Log1p(-0.5 * math.Erfc(z/sqrt2))
	case z > millsSwitch:
		return math.Log(0.5 * math.Erfc(-z/sqrt2))
	default:
		return -0.5*z*z - lnSqrt2Pi + math.Log(millsRatio(-z))
	}
}

// InvMills returns N(z)/Phi(z), the derivative of log Phi(z). It tends to
// -z for z -> -∞ and to 0 for z -> +∞ and is finite for every finite z.
func InvMills(z float64) float64 {
	switch {
	case math.IsNaN(z):
		return z
	case z > millsSwitch:
		return math.Exp(-0.5*z*z) * invSqrt2Pi / Phi(z)
	default:
		return 1 / millsRatio(-z)
	}
}

// millsRatio returns R(x) = (1 - Phi(x))/N(x) for x >= 20 by the
// continued fraction R(x) = 1/(x + 1/(x + 2/(x + 3/(x + ...)))) evaluated
// backwards (Abramowitz & Stegun 26.2.14); 60 terms give full double
// precision for x >= 20.
func millsRatio(x float64) float64 {
	if math.IsInf(x, 1) {
		return 0
	}
	t := x
	for k := 60; k >= 1; k-- {
		t = x + float64(k)/t
	}
	return 1 / t
}

// moments returns, for the probit likelihood Phi(y f) and a Gaussian cavity
// N(f; mc, vc), log Zhat = log Phi(z), and the site parameters (tt, tn) that
// match the first two moments of the tilted distribution (SPEC.md §2,
// GPML likErf/infEP):
//
//	z = y mc/sqrt(1+vc), r = N(z)/Phi(z)
//	dlZ = y r/sqrt(1+vc), d2lZ = -r (z+r)/(1+vc)
//	tt = -d2lZ/(1 + d2lZ vc), tn = (dlZ - mc d2lZ)/(1 + d2lZ vc)
//
// tt is clipped at zero (never active for probit, -d2lZ > 0).
func moments(y, mc, vc float64) (lZ, tt, tn float64) {
	s := math.Sqrt(1 + vc)
	z := y * mc / s
	r := InvMills(z)
	lZ = LogPhi(z)
	dlZ := y * r / s
	d2lZ := -r * (z + r) / (1 + vc)
	den := 1 + d2lZ*vc
	tt = -d2lZ / den
	if tt < 0 {
		tt = 0
	}
	tn = (dlZ - mc*d2lZ) / den
	return lZ, tt, tn
}
