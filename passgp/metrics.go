package passgp

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
)

// ErrorRate returns the fraction of i with pred[i] != truth[i].
func ErrorRate(pred, truth []float64) float64 {
	if len(pred) != len(truth) {
		panic("passgp: length mismatch")
	}
	return missRate(len(pred), func(i int) bool { return pred[i] != truth[i] })
}

// ProbErrorRate returns the fraction of i whose predictive probability
// prob[i] = q(+1|x_i) falls on the wrong side of 1/2 for the label y[i]
// (±1): the binary error of predicting +1 exactly when q > 1/2.
func ProbErrorRate(prob, y []float64) float64 {
	if len(prob) != len(y) {
		panic("passgp: length mismatch")
	}
	return missRate(len(prob), func(i int) bool { return (prob[i] > 0.5) != (y[i] > 0) })
}

// missRate returns the fraction of i in [0, n) with miss(i) (0 when n = 0).
func missRate(n int, miss func(i int) bool) float64 {
	if n == 0 {
		return 0
	}
	e := 0
	for i := range n {
		if miss(i) {
			e++
		}
	}
	return float64(e) / float64(n)
}

// Brier returns the binary Brier score mean_i (q_i − [y_i = +1])² for
// predictive probabilities q_i = q(+1|x_i) and labels ±1.
func Brier(prob, y []float64) float64 {
	var s float64
	for i, p := range prob {
		t := 0.0
		if y[i] > 0 {
			t = 1
		}
		s += (p - t) * (p - t)
	}
	return s / float64(len(prob))
}

// MeanNLP returns the mean negative log predictive probability
// −mean_i log q(y_i|x_i) of labels ±1 (probabilities clamped at 1e-300).
func MeanNLP(prob, y []float64) float64 {
	var s float64
	for i, p := range prob {
		if y[i] < 0 {
			p = 1 - p
		}
		s -= math.Log(math.Max(p, 1e-300))
	}
	return s / float64(len(prob))
}

// BrierMulti returns the multi-class Brier score
// mean_i Σ_c (p_ic − [label_i = c])², where p_i is row i of prob (the
// one-against-the-rest probabilities of PredictProbTo) normalised to sum
// to one.
func BrierMulti(prob *mat.Dense, classes, labels []float64) float64 {
	n, nc := prob.Dims()
	var s float64
	for i := 0; i < n; i++ {
		row := prob.RawRowView(i)
		z := floats.Sum(row)
		for c := 0; c < nc; c++ {
			t := 0.0
			if labels[i] == classes[c] {
				t = 1
			}
			p := row[c] / z
			s += (p - t) * (p - t)
		}
	}
	return s / float64(n)
}

// MeanNLPMulti returns −mean_i log p_i,label_i with the normalised
// one-against-the-rest probabilities of BrierMulti.
func MeanNLPMulti(prob *mat.Dense, classes, labels []float64) float64 {
	n, nc := prob.Dims()
	var s float64
	for i := 0; i < n; i++ {
		row := prob.RawRowView(i)
		z := floats.Sum(row)
		for c := 0; c < nc; c++ {
			if labels[i] == classes[c] {
				s -= math.Log(math.Max(row[c]/z, 1e-300))
			}
		}
	}
	return s / float64(n)
}

// The functions below take the latent z_i = m_i/√(1+v_i) of the
// predictive distribution (paper eq. 4: q(+1|x_i) = Φ(z_i)) instead of
// the probability. They are exact where the probability functions above
// round: q(y_i|x_i) = Φ(y_i z_i) is computed for the observed label, so a
// confident wrong prediction has its true NLP, not one clamped at
// −log 1e-300 ≈ 690.8.

// LatentErrorRate returns the fraction of i whose decision sign(z_i)
// (z_i > 0: +1) differs from y_i (±1).
func LatentErrorRate(z, y []float64) float64 {
	return missRate(len(z), func(i int) bool { return (z[i] > 0) != (y[i] > 0) })
}

// LatentBrier returns the binary Brier score mean_i (1 − q(y_i|x_i))² =
// mean_i Φ(−y_i z_i)².
func LatentBrier(z, y []float64) float64 {
	var s float64
	for i, v := range z {
		e := ep.Phi(-sign(y[i]) * v)
		s += e * e
	}
	return s / float64(len(z))
}

// LatentNLP returns −mean_i log Φ(y_i z_i).
func LatentNLP(z, y []float64) float64 {
	var s float64
	for i, v := range z {
		s -= ep.LogPhi(sign(y[i]) * v)
	}
	return s / float64(len(z))
}

// LatentNLPMulti returns −mean_i log p_i,t_i for the normalised
// one-against-the-rest probabilities p_ic = Φ(z_ic)/Σ_c' Φ(z_ic') of rows
// of z (n×K), t_i the true column, computed in log space (log Φ and a
// log-sum-exp) so that it does not round to infinity.
func LatentNLPMulti(z *mat.Dense, truth []int) float64 {
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

// ArgmaxLatent returns the index of the largest entry of one row of
// latents (ties: the smallest index): MultiClass's decision.
func ArgmaxLatent(row []float64) int { return floats.MaxIdx(row) }

func sign(y float64) float64 {
	if y > 0 {
		return 1
	}
	return -1
}

// ECE returns the expected calibration error of top-label predictions:
// the points are put into bins equal-width bins of their confidence conf_i
// (the probability of the predicted class), and ECE = Σ_b (n_b/n)·|mean
// confidence − accuracy| over the bins (Naeini et al. 2015; 15 bins is the
// usual choice).
func ECE(conf []float64, correct []bool, bins int) float64 {
	if len(conf) == 0 {
		return 0
	}
	cnt, sc, sa := make([]float64, bins), make([]float64, bins), make([]float64, bins)
	for i, c := range conf {
		b := min(max(int(c*float64(bins)), 0), bins-1)
		cnt[b]++
		sc[b] += c
		if correct[i] {
			sa[b]++
		}
	}
	var e float64
	for b := range cnt {
		e += math.Abs(sc[b] - sa[b])
	}
	return e / float64(len(conf))
}

// clearlyBetter returns the means of the per-point NLLs a and b, the
// standard error of their difference (from the paired differences) and
// whether b's mean is lower than a's by more than two of them: the
// incumbent (a) stays unless the other is measurably better on the
// training points.
func clearlyBetter(a, b []float64) (ma, mb, se float64, better bool) {
	n := float64(len(a))
	var sd, sd2 float64
	for i := range a {
		ma += a[i]
		mb += b[i]
		d := a[i] - b[i]
		sd += d
		sd2 += d * d
	}
	ma, mb = ma/n, mb/n
	mean := sd / n
	se = math.Sqrt(math.Max(sd2/n-mean*mean, 0) / n)
	return ma, mb, se, mean > 2*se
}
