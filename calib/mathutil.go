package calib

import "math"

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

// isFinite reports whether no element of v is NaN or infinite.
func isFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
