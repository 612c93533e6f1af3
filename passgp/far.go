package passgp

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
)

// NearTo sets near[i] to the largest correlation of row i of x with one
// of b's active inputs in the kernel's stationary part
// (kernel.Stationary), k_s(x_i, a)/k_s(x_i, x_i), in [0, 1]: 1 on an
// active input, near 0 far from all of them. Kernels without a
// stationary part (poly, se+lin), whose covariances grow with the inputs
// so that no point is far from the data, give 1. With a FITC posterior
// the active inputs are its inducing inputs. O(n·|A|·d), on la.Threads()
// goroutines. calib.Calibration.Gate takes it, for the model files whose
// calibration carries a gate (GateNear > 0).
//
// Why: with se+bias the posterior far from the data is the learned
// constant's, whose share of the prior variance stays below 1 and whose
// mean is not 0, so that (z, ρ) alone give a mix of that posterior and
// the class balance there (0.43 against a 0.136 positive share on the
// imbalanced task of docs/results.md). The share cannot tell
// such a point from one near data that leave the stationary part
// uninformed; the correlation can.
func (b *Binary) NearTo(near []float64, x *mat.Dense) {
	r := runner{threads: la.Threads()}
	_ = r.nearTo(context.Background(), b, near, DenseRows(x))
}

// nearTo is NearTo on r's goroutines; it returns ctx's error, with near
// partly filled, within one step of chunks after ctx ends.
func (r *runner) nearTo(ctx context.Context, b *Binary, near []float64, x Rows) error {
	n, d := x.Dims()
	near = near[:n]
	s, variance, _, ok := kernel.Stationary(b.Kernel)
	m, _ := b.X.Dims()
	if !ok || !(variance > 0) {
		for i := range near {
			near[i] = 1
		}
		return nil
	}
	if m == 0 {
		clear(near)
		return nil
	}
	g := gramNear{variance: variance} // s has no constant
	blocks := make([][]float64, max(r.threads, 1))
	inputs := make([][]float64, max(r.threads, 1))
	err := r.chunks(ctx, n, func(w, lo, hi int) {
		if len(blocks[w]) < scoreChunk*m {
			blocks[w] = make([]float64, scoreChunk*m)
			inputs[w] = make([]float64, scoreChunk*d)
		}
		kc := mat.NewDense(hi-lo, m, blocks[w][:(hi-lo)*m])
		xc := mat.NewDense(hi-lo, d, inputs[w][:(hi-lo)*d])
		x.RowsTo(xc.RawMatrix().Data, span(lo, hi))
		if r.serial {
			kernel.SerialCrossTo(s, kc, xc, b.X)
		} else {
			s.CrossTo(kc, xc, b.X)
		}
		g.nearFromGram(near[lo:hi], kc)
	})
	if err != nil {
		return err
	}
	return x.Err()
}

// gramNear reads the largest correlations of NearTo from a Gram block of
// the whole kernel, k(x, a) = variance·c(x, a) + constant (kernel.
// Stationary), so that a prediction, which computes that block anyway,
// gets them for O(|A|) per row. flat marks kernels without a stationary
// part (correlation 1).
type gramNear struct {
	variance, constant float64
	flat               bool
}

// gramNearMaxRatio bounds the constant against the variance for reading
// correlations from the Gram block: subtracting the constant loses
// 2.2·10⁻¹⁶ times it, which stays below 10⁻¹¹, far under the GateFar of
// 10⁻⁸ that gated model files carry, up to this ratio; beyond it NearTo
// computes the stationary part itself.
const gramNearMaxRatio = 1e4

// gramNearOf returns k's gramNear; ok is false when the Gram block does
// not give the correlations exactly enough (gramNearMaxRatio).
func gramNearOf(k kernel.Kernel) (g gramNear, ok bool) {
	_, variance, constant, stationary := kernel.Stationary(k)
	switch {
	case !stationary || !(variance > 0):
		return gramNear{flat: true}, true
	case constant > gramNearMaxRatio*variance:
		return gramNear{}, false
	}
	return gramNear{variance: variance, constant: constant}, true
}

// nearFromGram sets near[i] to the largest correlation in row i of the
// Gram block kc (rows of x against the active inputs).
func (g gramNear) nearFromGram(near []float64, kc *mat.Dense) {
	if g.flat {
		for i := range near {
			near[i] = 1
		}
		return
	}
	for i := range near {
		c := (rowMax(kc.RawRowView(i)) - g.constant) / g.variance
		near[i] = min(max(c, 0), 1)
	}
}

// rowMax returns the largest element of s (−Inf for an empty s): four
// independent running maxima, so that the scan is not one chain of
// dependent comparisons. 0.63 µs per 1000 elements against 1.4 µs for
// floats.Max, which also skips NaNs (a kernel value never is one, and
// calib.Calibration.Gate moves nothing for a NaN).
func rowMax(s []float64) float64 {
	m0, m1, m2, m3 := math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)
	i := 0
	for ; i+4 <= len(s); i += 4 {
		m0, m1, m2, m3 = max(m0, s[i]), max(m1, s[i+1]), max(m2, s[i+2]), max(m3, s[i+3])
	}
	for ; i < len(s); i++ {
		m0 = max(m0, s[i])
	}
	return max(max(m0, m1), max(m2, m3))
}
