package score

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// Chunk is the number of rows scored with one Gram block and one
// triangular solve (paper eq. 4 for Chunk points at once, one BLAS-3
// call). A list of rows is cut into chunks from its start, and a row's
// score depends on the other rows of its chunk only through the shape
// of the BLAS calls, so the split of the work, and with it every result,
// does not depend on the number of threads; and a part of the list that
// starts at a multiple of Chunk, scored on its own, gives the scores that
// scoring the whole list gives, bit for bit: a Remote hands such parts
// to its workers.
const Chunk = 256

// workspace is one worker's workspace: a chunk of inputs, its Gram block
// against A and its test diagonal. Size O(Chunk·(M+d)).
type workspace struct {
	xc, kc []float64
	kss    []float64
	// Screen's scratch: the rows it solves and their means and variances.
	idx    []int
	mu, vr []float64
	// span holds the indices of a chunk of consecutive rows.
	span []int
}

// grow sizes w for a chunk of rows points: exactly, so that predicting a
// single point does not allocate a full chunk's Gram block.
func (w *workspace) grow(rows, d, m int) (xc, kc *mat.Dense, kss []float64) {
	if cap(w.xc) < rows*d {
		w.xc = make([]float64, rows*d)
	}
	if cap(w.kc) < rows*m {
		w.kc = make([]float64, rows*m)
	}
	if cap(w.kss) < rows {
		w.kss = make([]float64, rows)
	}
	return mat.NewDense(rows, d, w.xc[:rows*d]), mat.NewDense(rows, m, w.kc[:rows*m]), w.kss[:rows]
}

// Predict sets mean[i], variance[i] to the EP predictive latent marginal
// (paper eq. 4) of row rows[i] of x (all rows if rows is nil) under post,
// the posterior on the active inputs xa with kernel k. Each chunk of
// Chunk rows costs one Gram block K(chunk, A) and one triangular solve
// with Chunk right-hand sides inside PredictCrossTo: O(len(mean)·M²) in
// all, on r's workers.
//
// With sc not nil, a row that sc calls decided by its mean alone gets
// variance k(x, x), its prior variance, instead of its triangular solve
// (Screen).
func (r *Runner) Predict(post *ep.Posterior, k kernel.Kernel, xa *mat.Dense, x Rows, rows []int, mean, variance []float64, sc *Screen) {
	n := len(mean)
	if n == 0 {
		return
	}
	m, d := xa.Dims()
	if len(r.ws) < max(r.Threads, 1) {
		r.ws = make([]workspace, max(r.Threads, 1))
	}
	chunks := (n + Chunk - 1) / Chunk
	r.parallel(chunks, func(w, c int) {
		lo := c * Chunk
		hi := min(lo+Chunk, n)
		ws := &r.ws[w]
		xc, kc, kss := ws.grow(hi-lo, d, m)
		if rows != nil {
			x.RowsTo(xc.RawMatrix().Data, rows[lo:hi])
		} else {
			ws.span = spanTo(ws.span, lo, hi)
			x.RowsTo(xc.RawMatrix().Data, ws.span)
		}
		if r.Serial {
			kernel.SerialCrossTo(k, kc, xc, xa)
		} else {
			k.CrossTo(kc, xc, xa)
		}
		k.DiagTo(kss, xc)
		switch {
		case r.Serial:
			post.PredictCrossSerialTo(mean[lo:hi], variance[lo:hi], nil, kc, kss)
			return
		case sc == nil:
			post.PredictCrossTo(mean[lo:hi], variance[lo:hi], nil, kc, kss)
			return
		}
		sc.predict(post, rows, lo, mean[lo:hi], variance[lo:hi], kc, kss, &r.ws[w])
	})
}

// PredictContext is Predict for the rows listed in rows (not nil) that
// checks ctx between rounds of one chunk per worker, so that scoring a
// large batch or the held-out pass over every training point stops
// within one chunk of a cancellation. It returns ctx.Err() then, with
// mean and variance partly filled, and x's read error (Rows.Err) after
// the last chunk.
func (r *Runner) PredictContext(ctx context.Context, post *ep.Posterior, k kernel.Kernel, xa *mat.Dense, x Rows, rows []int, mean, variance []float64, sc *Screen) error {
	step := Chunk * max(r.Threads, 1)
	for lo := 0; lo < len(rows); lo += step {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+step, len(rows))
		r.Predict(post, k, xa, x, rows[lo:hi], mean[lo:hi], variance[lo:hi], sc)
	}
	return x.Err()
}

// spanTo sets dst to lo, ..., hi-1 in dst's storage (grown if needed).
func spanTo(dst []int, lo, hi int) []int {
	dst = dst[:0]
	for i := lo; i < hi; i++ {
		dst = append(dst, i)
	}
	return dst
}
