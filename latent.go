package passgpfast

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
)

// The functions below take the latent z_i = m_i/√(1+v_i) of the
// predictive distribution (paper eq. 4: q(+1|x_i) = Φ(z_i)) instead of
// the probability. They are exact where the probability functions of
// package calib (calib.MeanNLP, calib.Brier) round: q(y_i|x_i) =
// Φ(y_i z_i) is computed for the observed label, so a confident wrong
// prediction has its true NLP, not one clamped at −log 1e-300 ≈ 690.8.

// latentBrier returns the binary Brier score mean_i (1 − q(y_i|x_i))² =
// mean_i Φ(−y_i z_i)².
func latentBrier(z, y []float64) float64 {
	var s float64
	for i, v := range z {
		e := ep.Phi(-sign(y[i]) * v)
		s += e * e
	}
	return s / float64(len(z))
}

// latentNLP returns −mean_i log Φ(y_i z_i).
func latentNLP(z, y []float64) float64 {
	var s float64
	for i, v := range z {
		s -= ep.LogPhi(sign(y[i]) * v)
	}
	return s / float64(len(z))
}

// latentNLPMulti returns −mean_i log p_i,t_i for the normalised
// one-against-the-rest probabilities p_ic = Φ(z_ic)/Σ_c' Φ(z_ic') of rows
// of z (n×K), t_i the true column, computed in log space (log Φ and a
// log-sum-exp) so that it does not round to infinity.
func latentNLPMulti(z *mat.Dense, truth []int) float64 {
	n, k := z.Dims()
	lp := make([]float64, k)
	var s float64
	for i := 0; i < n; i++ {
		for c, v := range z.RawRowView(i) {
			lp[c] = ep.LogPhi(v)
		}
		s -= lp[truth[i]] - floats.LogSumExp(lp)
	}
	return s / float64(n)
}

func sign(y float64) float64 {
	if y > 0 {
		return 1
	}
	return -1
}
