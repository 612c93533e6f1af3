package passgpfast

import (
	"context"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/passgp"
	"github.com/passgp-fast/passgp-fast/score"
)

// RemoteScorer scores rows of the binary data file that FitBinary trains
// on elsewhere, e.g. on the workers of a Beam pipeline (package train of
// the beam module), while FitBinary keeps EP, the selection rule and the
// calibration. Score must set mean[k] and vr[k] to what ScoreTask gives
// for row rows[k] of the data file, with the task's bytes task: a worker scores parts of rows, each
// starting at a multiple of score.Chunk within rows, with
// ScoreTask (or DecodeTask and Task.Score), and the classifier is then
// FitBinary's without a remote scorer, bit for bit. y[k] is the label
// (±1) of row rows[k] for the classifier being trained, given when the
// task screens (nil otherwise). The classes of a one-vs-rest run call it
// concurrently. It must return ctx's error when ctx ends.
type RemoteScorer interface {
	Score(ctx context.Context, task []byte, rows []int, y, mean, vr []float64) error
}

// WithRemoteScorer has FitBinary score the batches' candidates and the
// held-out points through r (RemoteScorer). The classes of a one-vs-rest
// run then train side by side, all at once, so that their scoring runs
// in parallel, unless a checkpoint is written (WithCheckpoint) or
// resumed. Fit and FitDataset, whose inputs are in this process's
// memory, ignore it.
func WithRemoteScorer(r RemoteScorer) Option { return func(s *settings) { s.remote = r } }

// remoteRows are the training rows of FitBinary with a remote scorer:
// a score.Remote, which hands r each scoring job as a task with
// the input scaling that the rows are read with.
type remoteRows struct {
	passgp.Rows
	r       RemoteScorer
	scaling *data.Scaling
}

// ScoreRows implements score.Remote.
func (x *remoteRows) ScoreRows(ctx context.Context, job *score.Job, rows []int, y, mean, vr []float64) error {
	task, err := encodeTask(x.scaling, job)
	if err != nil {
		return err
	}
	return x.r.Score(ctx, task, rows, y, mean, vr)
}

// ChecksFinite reports whether reads fail on a value that is not finite,
// as the rows it wraps do.
func (x *remoteRows) ChecksFinite() bool {
	return score.ChecksFinite(x.Rows)
}
