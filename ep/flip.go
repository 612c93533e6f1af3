package ep

import "math"

// This file holds the robust (label-flip) likelihood of Options.Flip,
//
//	p(y|f) = ε + (1-2ε) Φ(y f),
//
// the probit likelihood of a label that was flipped with probability ε
// (Kuss & Rasmussen 2005, "Assessing approximations for Gaussian process
// classification"; Hernández-Lobato et al. 2011, "Robust multi-class
// Gaussian process classification"). Its EP moments stay closed form: for a
// cavity N(f; m, v), with z = y m/√(1+v),
//
//	Ẑ = ε + (1-2ε) Φ(z),
//	∂ log Ẑ/∂m = y r/√(1+v),  ∂² log Ẑ/∂m² = -r (z + r)/(1+v),
//	r = (1-2ε) N(z)/Ẑ,
//
// which is the probit result (SPEC.md §2) with the inverse Mills ratio
// N(z)/Φ(z) replaced by r. r = w N(z)/Φ(z) with the weight
// w = (1-2ε)Φ(z)/Ẑ = 1/(1 + ε/((1-2ε)Φ(z))) ∈ (0, 1], which is how it is
// evaluated: stable in both tails (r → 0 for z → -∞, where Ẑ → ε).
//
// The likelihood is not log-concave: far on the wrong side (z + r < 0) the
// second derivative is positive and moment matching asks for a negative
// site precision. There the site is taken with precision 0 and ν̃ = ∂ log
// Ẑ/∂m, which still matches the tilted mean exactly (the posterior
// marginal keeps the cavity variance): a wrong-side point shifts the
// latent by at most v·max r/√(1+v) and adds no precision. GPML's infEP
// clips the same way. Such a site is not moment matched in the variance,
// so while one exists log Z_EP is not stationary in the sites and
// Posterior.GradientTo (the fixed-point formula) is only approximate.

// flipMoments returns log Ẑ, ∂ log Ẑ/∂m and ∂² log Ẑ/∂m² of the robust
// likelihood with flip probability eps > 0 for the cavity N(f; mc, vc).
func flipMoments(y, mc, vc, eps float64) (lZ, dlZ, d2lZ float64) {
	s := math.Sqrt(1 + vc)
	z := y * mc / s
	lp := LogPhi(z)
	a := math.Log(eps) - math.Log1p(-2*eps) - lp // log(ε/((1-2ε)Φ(z)))
	var w float64
	if a > 0 {
		e := math.Exp(-a)
		w = e / (1 + e)
		lZ = math.Log(eps) + math.Log1p(e)
	} else {
		e := math.Exp(a)
		w = 1 / (1 + e)
		lZ = math.Log1p(-2*eps) + lp + math.Log1p(e)
	}
	r := w * InvMills(z)
	return lZ, y * r / s, -r * (z + r) / (1 + vc)
}

// logLik returns log Ẑ of the posterior's likelihood for z = y m/√(1+v):
// LogPhi(z) for the probit likelihood (the code path of Flip = 0, bit for
// bit), the robust one otherwise.
func (p *Posterior) logLik(z float64) float64 { return logLik(z, p.Flip) }

// logLik is Posterior.logLik for the likelihood with flip probability eps.
func logLik(z, eps float64) float64 {
	if eps == 0 {
		return LogPhi(z)
	}
	lp := LogPhi(z)
	a := math.Log(eps) - math.Log1p(-2*eps) - lp
	if a > 0 {
		return math.Log(eps) + math.Log1p(math.Exp(-a))
	}
	return math.Log1p(-2*eps) + lp + math.Log1p(math.Exp(a))
}

// siteUpdate returns the moment-matched site (τ̃, ν̃) of a label y for the
// cavity N(f; mc, vc): moments for the probit likelihood (Flip = 0, the
// original code path), else flipMoments with the zero-precision site where
// the likelihood is locally log-convex.
func (p *Posterior) siteUpdate(y, mc, vc float64) (tt, tn float64) {
	return matchSite(y, mc, vc, p.Flip)
}

// matchSite is siteUpdate for the likelihood with flip probability eps.
func matchSite(y, mc, vc, eps float64) (tt, tn float64) {
	if eps == 0 {
		_, tt, tn = moments(y, mc, vc)
		return tt, tn
	}
	_, dlZ, d2lZ := flipMoments(y, mc, vc, eps)
	den := 1 + d2lZ*vc
	if !(d2lZ < 0) || !(den > 0) {
		return 0, dlZ
	}
	return -d2lZ / den, (dlZ - mc*d2lZ) / den
}

// MatchSite returns the site (τ̃, ν̃) that moment matching gives a point of
// label y whose cavity is N(f; mean, variance), under the likelihood with
// flip probability flip (0: probit): one ADF step.
func MatchSite(y, mean, variance, flip float64) (tau, nu float64) {
	return matchSite(y, mean, variance, flip)
}
