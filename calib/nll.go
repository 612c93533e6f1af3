package calib

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// MeanNLL returns −mean_i log p(truth_i | z_i, rho_i) under c (rho nil:
// all 0), computed in log space (exact where the probabilities
// underflow). truth is as in Fit.
func (c *Calibration) MeanNLL(z, rho *mat.Dense, truth []int) float64 {
	n, _ := z.Dims()
	var s float64
	c.eachNLL(z, rho, truth, func(_ int, v float64) { s += v })
	return s / float64(n)
}

// NLLTo sets dst[i] to −log p(truth_i | z_i, rho_i) under c, as MeanNLL.
func (c *Calibration) NLLTo(dst []float64, z, rho *mat.Dense, truth []int) {
	if n, _ := z.Dims(); len(dst) != n {
		panic("calib: Calibration.NLLTo: destination has the wrong length")
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
