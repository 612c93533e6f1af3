package passgp

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/score"
)

// runner holds what a training run shares between its stages: the
// scoring runner (worker goroutines and their workspaces, score.Runner),
// on whose chunks passgp's own passes over rows (the FITC prediction)
// also run, so that they too do not depend on Threads.
type runner struct{ score.Runner }

// newRunner returns a runner of threads worker goroutines.
func newRunner(threads int) *runner { return &runner{score.Runner{Threads: threads}} }

// remoteOf returns the score.Remote of the training rows behind x and
// the rows rows of x numbered as the training rows number them; nil
// when x has none.
func remoteOf(x Rows, rows []int) (score.Remote, []int) {
	switch v := x.(type) {
	case score.Remote:
		return v, rows
	case score.Subset:
		if rs, ok := v.X.(score.Remote); ok {
			return rs, gather(v.Idx, rows)
		}
	}
	return nil, nil
}

// scoreRows is PredictContext for training's scoring of the rows rows
// of x (the training rows, or the held-out stage's view of them):
// through their score.Remote where they have one, with sc's labels of
// the rows when sc screens.
func (r *runner) scoreRows(ctx context.Context, post *ep.Posterior, k kernel.Kernel, xa *mat.Dense, x Rows, rows []int, mean, vr []float64, sc *score.Screen) error {
	rs, orig := remoteOf(x, rows)
	if rs == nil || len(rows) == 0 {
		return r.PredictContext(ctx, post, k, xa, x, rows, mean, vr, sc)
	}
	var y []float64
	if sc != nil {
		y = gather(sc.Y, rows)
	}
	if err := rs.ScoreRows(ctx, score.NewJob(post, k, xa, sc), orig, y, mean, vr); err != nil {
		return fmt.Errorf("passgp: remote scoring of %d rows: %w", len(rows), err)
	}
	return nil
}
