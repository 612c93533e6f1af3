package passgp

import "gonum.org/v1/gonum/floats"

// LatentErrorRate returns the fraction of i whose decision sign(z_i)
// (z_i > 0: +1) differs from y_i (±1), for the latents z_i = m_i/√(1+v_i)
// of the predictive distribution (paper eq. 4: q(+1|x_i) = Φ(z_i)).
func LatentErrorRate(z, y []float64) float64 {
	if len(z) == 0 {
		return 0
	}
	e := 0
	for i, v := range z {
		if (v > 0) != (y[i] > 0) {
			e++
		}
	}
	return float64(e) / float64(len(z))
}

// ArgmaxLatent returns the index of the largest entry of one row of
// latents (ties: the smallest index): MultiClass's decision.
func ArgmaxLatent(row []float64) int { return floats.MaxIdx(row) }
