package score

import "context"

// Remote is scoring that runs elsewhere, e.g. on the workers of a
// data-parallel pipeline that can read the same rows. When the rows that
// passgp's TrainRows and TrainMultiRows train on implement it, PASS-GP's
// trainer scores each batch's candidates, and the held-out stage its
// points, through ScoreRows; everything else (EP, the selection rule,
// the calibration) stays with the caller of TrainRows.
//
// ScoreRows must set mean[k] and vr[k] to what job.Score gives for row
// rows[k] of the training rows: a worker gets the job by
// job.MarshalBinary and UnmarshalJob and scores parts of rows with
// Score, each part starting at a multiple of Chunk within rows, so that
// the results are the trainer's bit for bit. y[k] is the ±1 label of
// row rows[k], given when job.Screens() (nil otherwise). Classes of a
// one-vs-rest run may call it concurrently. It must return ctx's error
// when ctx ends.
type Remote interface {
	ScoreRows(ctx context.Context, job *Job, rows []int, y, mean, vr []float64) error
}
