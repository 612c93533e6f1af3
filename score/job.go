package score

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// Job is what scoring rows under one posterior needs, as training
// scores a batch's candidates and the held-out points: the kernel and
// its θ, the active inputs, the posterior's prediction state
// (ep.PredictState), and whether to screen candidates by p_inc (paper
// Algorithm 1's inclusion rule; see Screen). The trainer builds it;
// MarshalBinary and UnmarshalJob carry it to a worker, whose Score
// gives the trainer's scores bit for bit.
type Job struct {
	k    kernel.Kernel
	xa   *mat.Dense
	post *ep.Posterior
	// pinc is the screen's p_inc when screens is set.
	pinc    float64
	screens bool
}

// NewJob returns the job of scoring under post (kernel k, active inputs
// xa) with the screen sc (nil: none; only its PInc is kept, the labels
// come with each Score call). It shares post and xa.
func NewJob(post *ep.Posterior, k kernel.Kernel, xa *mat.Dense, sc *Screen) *Job {
	j := &Job{k: k, xa: xa, post: post}
	if sc != nil {
		j.screens, j.pinc = true, sc.PInc
	}
	return j
}

// Screens reports whether the job screens: Score then reads the labels.
func (j *Job) Screens() bool { return j.screens }

// Dim returns the number of input features D.
func (j *Job) Dim() int {
	_, d := j.xa.Dims()
	return d
}

// Score sets mean[k] and vr[k] to the predictive latent mean and
// variance (paper eq. 4) of row rows[k] of x under the job's posterior.
// y[k] is the ±1 label of row rows[k], read only when the job screens
// (Screens; a screened row gets its prior variance, see Screen), else y
// may be nil. It scores as training does: the rows in chunks of
// Chunk from rows[0], through the same code, so the results are
// training's bit for bit when rows is the trainer's list or a part of
// it that starts at a multiple of Chunk. It runs on the calling
// goroutine (one core, besides BLAS's threads). It returns x's read
// error, or ctx's error within one chunk of ctx ending.
func (j *Job) Score(ctx context.Context, x Rows, rows []int, y, mean, vr []float64) error {
	n := len(rows)
	if len(mean) != n || len(vr) != n || (j.screens && len(y) != n) {
		return fmt.Errorf("score: Job.Score: %d rows with %d labels, %d means and %d variances", n, len(y), len(mean), len(vr))
	}
	if _, d := x.Dims(); d != j.Dim() {
		return fmt.Errorf("score: rows of %d features for a scoring job of %d", d, j.Dim())
	}
	if n == 0 {
		return x.Err()
	}
	var sc *Screen
	if j.screens {
		sc = &Screen{Y: y, PInc: j.pinc}
	}
	r := &Runner{Threads: 1}
	return r.PredictContext(ctx, j.post, j.k, j.xa, Subset{x, rows}, spanTo(nil, 0, n), mean, vr, sc)
}
