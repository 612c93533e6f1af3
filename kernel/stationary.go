package kernel

// Stationary returns the stationary part of k, a covariance that depends
// on x − x' alone and decays to 0 far apart, with its variance k_s(x, x),
// and the variance of the constant that k adds to it: k itself, its t1
// and 0 for SE and SEARD; the SE or SEARD part, its t1 and t4 for
// SE+bias and SEARD+bias. ok is false for SE+lin and poly, whose
// covariances grow with the inputs, so that no point is far from the
// data for them. The gate of older model files (package model) uses it.
func Stationary(k Kernel) (s Kernel, variance, constant float64, ok bool) {
	switch k := k.(type) {
	case SE:
		return k, k.Var, 0, true
	case SEBias:
		return k.SE, k.Var, k.Bias, true
	case SEARD:
		return k, k.Var, 0, true
	case SEARDBias:
		return k.SEARD, k.Var, k.Bias, true
	}
	return nil, 0, 0, false
}
