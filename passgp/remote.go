package passgp

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// RemoteScorer is an optional interface of the Rows that TrainRows and
// TrainMultiRows train on: scoring that runs elsewhere, e.g. on the
// workers of a data-parallel pipeline that can read the same rows. When
// the training rows implement it, PASS-GP's trainer scores each batch's
// candidates, and the held-out stage its points, through ScoreRows;
// everything else (EP, the selection rule, the calibration) stays with
// the caller of TrainRows.
//
// ScoreRows must set mean[k] and vr[k] to what job.Score gives for row rows[k] of the training rows: a worker
// gets the job by job.MarshalBinary and UnmarshalScoreJob and scores
// parts of rows with Score, each part starting at a multiple of
// ScoreChunk within rows, so that the results are the trainer's bit for
// bit. y[k] is the ±1 label of row rows[k], given when job.Screens()
// (nil otherwise). Classes of a one-vs-rest run may call it
// concurrently. It must return ctx's error when ctx ends.
type RemoteScorer interface {
	ScoreRows(ctx context.Context, job *ScoreJob, rows []int, y, mean, vr []float64) error
}

// remoteOf returns the RemoteScorer of the training rows behind x and
// the rows rows of x numbered as the training rows number them; nil
// when x has none.
func remoteOf(x Rows, rows []int) (RemoteScorer, []int) {
	switch v := x.(type) {
	case RemoteScorer:
		return v, rows
	case subsetRows:
		if rs, ok := v.x.(RemoteScorer); ok {
			return rs, gather(v.rows, rows)
		}
	}
	return nil, nil
}

// scoreRows is predictRowsContext for training's scoring of the rows
// rows of x (the training rows, or the held-out stage's view of them):
// through their RemoteScorer where they have one, with sc's labels of
// the rows when sc screens.
func (r *runner) scoreRows(ctx context.Context, post *ep.Posterior, k kernel.Kernel, xa *mat.Dense, x Rows, rows []int, mean, vr []float64, sc *screen) error {
	rs, orig := remoteOf(x, rows)
	if rs == nil || len(rows) == 0 {
		return r.predictRowsContext(ctx, post, k, xa, x, rows, mean, vr, sc)
	}
	var y []float64
	if sc != nil {
		y = gather(sc.y, rows)
	}
	if err := rs.ScoreRows(ctx, newScoreJob(post, k, xa, sc), orig, y, mean, vr); err != nil {
		return fmt.Errorf("passgp: remote scoring of %d rows: %w", len(rows), err)
	}
	return nil
}
