package score

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
)

// Screen lets PASS-GP's scoring of a batch skip the predictive variance
// of candidates whose fate the mean decides: the scores serve only the
// batch's rule (paper Algorithm 1), and a candidate with y·m > 0 has
// q(y|x) = Φ(y m/√(1+v)) decreasing in v, and v lies in [0, k(x, x)], so
// if q ≥ p_inc at v = k(x, x) it is not included whatever v is. Its
// variance, the O(M²) part of a score, is then not needed; on noisy
// tasks most of a pass's candidates are such points. The rule's
// decisions and counts are those of full scoring.
type Screen struct {
	// Y holds the ±1 labels of the rows of x that Predict scores, by
	// row index.
	Y []float64
	// PInc is the rule's inclusion threshold p_inc.
	PInc float64
}

// screenMargin keeps screened candidates clear of p_inc by more than
// the rounding of the variance and of Φ.
const screenMargin = 1e-9

// certain reports whether a candidate with label y, predictive mean m
// and prior variance kss is left out by the rule at every posterior
// variance in [0, kss].
func (s *Screen) certain(y, m, kss float64) bool {
	return y*m > 0 && Prob(y, m, kss) >= s.PInc+screenMargin
}

// predict fills mean and variance of one chunk (source rows rows[lo:],
// Gram block kc, prior variances kss): the means of all rows, the
// variances of the rows that are not certain, by one solve on their
// rows of kc moved to its top, and k(x, x) for the others.
func (s *Screen) predict(post *ep.Posterior, rows []int, lo int, mean, variance []float64, kc *mat.Dense, kss []float64, w *workspace) {
	post.PredictCrossTo(mean, nil, nil, kc, nil)
	raw := kc.RawMatrix()
	m := raw.Cols
	if cap(w.idx) < len(mean) {
		w.idx = make([]int, len(mean))
		w.mu, w.vr = make([]float64, len(mean)), make([]float64, len(mean))
	}
	idx := w.idx[:0]
	for i, mu := range mean {
		if s.certain(s.Y[rows[lo+i]], mu, kss[i]) {
			variance[i] = kss[i]
			continue
		}
		n := len(idx)
		if n != i {
			copy(raw.Data[n*raw.Stride:n*raw.Stride+m], raw.Data[i*raw.Stride:i*raw.Stride+m])
			kss[n] = kss[i]
		}
		idx = append(idx, i)
	}
	n := len(idx)
	if n == 0 {
		return
	}
	mu, vr := w.mu[:n], w.vr[:n]
	post.PredictCrossTo(mu, vr, nil, kc.Slice(0, n, 0, m).(*mat.Dense), kss[:n])
	for j, i := range idx {
		variance[i] = vr[j]
	}
}

// Prob returns the predictive probability q(y|x) = Φ(y m/√(1+v)) (paper
// eq. 4) of label y at latent mean m and variance v, computed for the
// given label rather than as 1 - q(+1|x) so that it keeps its precision.
func Prob(y, m, v float64) float64 {
	return ep.Phi(y * m / sqrtPos(1+v))
}

// sqrtPos returns √v, or 0 for a negative v (rounding).
func sqrtPos(v float64) float64 {
	if v < 0 {
		return 0
	}
	return math.Sqrt(v)
}
