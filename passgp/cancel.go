package passgp

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// predictRowsContext is predictRows for the rows listed in rows (not nil)
// that checks ctx between rounds of one scoring chunk per worker, so
// that scoring a large batch or the held-out pass over every training
// point stops within one chunk of a cancellation. It returns ctx.Err()
// then, with mean and variance partly filled, and x's read error
// (Rows.Err) after the last chunk.
func (r *runner) predictRowsContext(ctx context.Context, post *ep.Posterior, k kernel.Kernel, xa *mat.Dense, x Rows, rows []int, mean, variance []float64, sc *screen) error {
	step := scoreChunk * max(r.threads, 1)
	for lo := 0; lo < len(rows); lo += step {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+step, len(rows))
		r.predictRows(post, k, xa, x, rows[lo:hi], mean[lo:hi], variance[lo:hi], nil, gramNear{}, sc)
	}
	return x.Err()
}

// chunks calls f(w, lo, hi) for the rows [lo, hi) of n rows in chunks of
// scoreChunk rows on r's workers (w the worker), a round of one chunk per
// worker at a time, and checks ctx between rounds: it returns ctx's
// error, with the later rows left undone, when ctx ends.
func (r *runner) chunks(ctx context.Context, n int, f func(w, lo, hi int)) error {
	step := scoreChunk * max(r.threads, 1)
	for from := 0; from < n; from += step {
		if err := ctx.Err(); err != nil {
			return err
		}
		to := min(from+step, n)
		r.parallel((to-from+scoreChunk-1)/scoreChunk, func(w, c int) {
			lo := from + c*scoreChunk
			f(w, lo, min(lo+scoreChunk, to))
		})
	}
	return nil
}
