package passgp

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/score"
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
	r := newRunner(la.Threads())
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
	g := score.Near{Variance: variance} // s has no constant
	blocks := make([][]float64, max(r.Threads, 1))
	inputs := make([][]float64, max(r.Threads, 1))
	err := r.Chunks(ctx, n, func(w, lo, hi int) {
		if len(blocks[w]) < score.Chunk*m {
			blocks[w] = make([]float64, score.Chunk*m)
			inputs[w] = make([]float64, score.Chunk*d)
		}
		kc := mat.NewDense(hi-lo, m, blocks[w][:(hi-lo)*m])
		xc := mat.NewDense(hi-lo, d, inputs[w][:(hi-lo)*d])
		x.RowsTo(xc.RawMatrix().Data, span(lo, hi))
		if r.Serial {
			kernel.SerialCrossTo(s, kc, xc, b.X)
		} else {
			s.CrossTo(kc, xc, b.X)
		}
		g.FromGram(near[lo:hi], kc)
	})
	if err != nil {
		return err
	}
	return x.Err()
}
