package calib

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// ErrorRate returns the fraction of i with pred[i] != truth[i].
func ErrorRate(pred, truth []float64) float64 {
	if len(pred) != len(truth) {
		panic("calib: length mismatch")
	}
	return missRate(len(pred), func(i int) bool { return pred[i] != truth[i] })
}

// ProbErrorRate returns the fraction of i whose predictive probability
// prob[i] = q(+1|x_i) falls on the wrong side of 1/2 for the label y[i]
// (±1): the binary error of predicting +1 exactly when q > 1/2.
func ProbErrorRate(prob, y []float64) float64 {
	if len(prob) != len(y) {
		panic("calib: length mismatch")
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
// one-against-the-rest probabilities of passgp.MultiClass.PredictProbTo) normalised to sum
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
