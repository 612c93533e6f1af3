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
// then, with mean, variance and near (nil: not read) partly filled.
func (r *runner) predictRowsContext(ctx context.Context, post *ep.Posterior, k kernel.Kernel, xa, x *mat.Dense, rows []int, mean, variance, near []float64, g gramNear, sc *screen) error {
	step := scoreChunk * max(r.threads, 1)
	for lo := 0; lo < len(rows); lo += step {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+step, len(rows))
		var nr []float64
		if near != nil {
			nr = near[lo:hi]
		}
		r.predictRows(post, k, xa, x, rows[lo:hi], mean[lo:hi], variance[lo:hi], nr, g, sc)
	}
	return nil
}
