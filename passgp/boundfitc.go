package passgp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
)

// FITCChoice records the FITC pass of Options.BoundFITC for one
// classifier: whether its posterior replaced the active set's, and why.
type FITCChoice struct {
	// Inducing is the number of inducing inputs, Sweeps the pass's EP
	// sweeps and Elapsed its time, the held-out comparison included.
	Inducing, Sweeps int
	Elapsed          time.Duration
	// ActiveNLL and FITCNLL are the mean negative log likelihoods of the
	// training labels under each posterior's held-out latents
	// (Result.HeldOut), each through its own calibration.
	ActiveNLL, FITCNLL float64
	// Kept is set when the FITC posterior became the classifier's
	// (FITCNLL < ActiveNLL).
	Kept bool
	// Failed, if not empty, says why the pass gave no posterior (EP did
	// not converge, or P was not positive definite); the active set's
	// posterior then stays.
	Failed string
}

// boundFITC reports whether Options.BoundFITC applies: PASS-GP, with
// neither FITC nor Augment.
func (c *config) boundFITC() bool {
	return c.BoundFITC > 0 && c.Method == PASSGP && !c.FITC && c.Augment == 0
}

// runBound is run, calibrated, with Options.BoundFITC's pass. Training
// stops after the pass in which the budget bound and tries the FITC pass
// there (boundPass); if it is kept, the remaining passes are skipped,
// because from then on θ is kept and the FITC posterior sees every
// training point, whichever |A| of them the further passes would choose;
// if not, training continues from where it stopped, as without the
// option, and the FITC pass is not tried again. A budget that first binds
// in the last pass gets the pass at the end.
func (t *trainer) runBound(ctx context.Context) (*Result, error) {
	t.untilBound = true
	res, err := t.run(ctx)
	if err == nil {
		err = t.calibrate(ctx, res)
	}
	if err != nil {
		return res, err
	}
	if err := boundPass(ctx, t.c, t.r, res, t.x, t.y); err != nil {
		return res, err
	}
	if !t.cut || res.BoundFITC != nil && res.BoundFITC.Kept {
		return res, nil
	}
	tried := res.BoundFITC
	t.untilBound, t.cut = false, false
	t.st.Elapsed = t.elapsed()
	if res, err = t.loop(ctx); err == nil {
		err = t.calibrate(ctx, res)
	}
	if res != nil {
		res.BoundFITC = tried
	}
	return res, err
}

// calibrate is train's calibrate for the trainer's result, with the last
// pass's scores.
func (t *trainer) calibrate(ctx context.Context, res *Result) error {
	last := res.scores
	res.scores = nil
	if err := ctx.Err(); err != nil {
		return err
	}
	return calibrate(ctx, t.r, res, t.x, t.y, nil, last)
}

// boundPass is Options.BoundFITC: for a classifier whose budget bound
// during selection (a batch with Trimmed), EP on all training points under
// the FITC prior at the classifier's θ, with a random subset of the active
// inputs as inducing inputs, replacing the active set's posterior where
// its held-out latents predict the training labels better. It runs after
// calibrate, whose held-out latents and calibration of the active set's
// posterior it compares against and replaces.
//
// Why: where the budget binds, the active set holds the |A| points the
// model is least sure of, not every point the inclusion rule wanted, and
// its posterior sees none of the rest; on label-noise tasks this leaves the
// decision function less accurate than one fitted to all points
// (docs/passgp.md, session 29: the 10-class task 14.71% → 14.43% on the
// test set). The leave-one-out cavities of the FITC posterior and the
// held-out latents of the active set's (inactive points' predictions,
// active points' cavities) both predict each training label without it,
// so their calibrated likelihoods compare the two posteriors on the
// training data alone; on IJCNN and on a class whose θ drifted to a short
// length scale, the subset of inducing inputs cannot carry the posterior,
// and that comparison keeps the active set's.
func boundPass(ctx context.Context, c *config, r *runner, res *Result, x *mat.Dense, y []float64) error {
	if !c.boundFITC() || res.Calibration == nil || !budgetBound(res.Batches) {
		return nil
	}
	t0 := time.Now()
	b := res.Model
	idx := inducingSubset(c.Seed, len(b.Y), c.BoundFITC)
	xm := b.X
	if idx != nil {
		xm = gatherRows(b.X, idx)
	}
	ch := &FITCChoice{Inducing: len(b.Y)}
	if idx != nil {
		ch.Inducing = len(idx)
	}
	res.BoundFITC = ch
	defer func() { ch.Elapsed = time.Since(t0); res.Elapsed += ch.Elapsed }()
	o := c.finalEPOptions()
	f, err := ep.InferFITC(ctx, b.Kernel, x, y, xm, nil, &o)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		ch.Failed = err.Error()
		return nil
	}
	ch.Sweeps = f.Sweeps
	nb := *b
	nb.Sparse, nb.Inducing = f, idx
	z, rho, lost, err := heldOutLatents(ctx, r, &nb, x, nil, nil)
	if err != nil {
		return err
	}
	truth := binaryTruth(y)
	n := len(y)
	cal, err := FitCalibration(mat.NewDense(n, 1, z), mat.NewDense(n, 1, rho), truth)
	if err != nil {
		return err
	}
	ch.FITCNLL = cal.MeanNLL(mat.NewDense(n, 1, z), mat.NewDense(n, 1, rho), truth)
	ch.ActiveNLL = res.Calibration.MeanNLL(mat.NewDense(n, 1, res.HeldOut), mat.NewDense(n, 1, res.HeldOutShare), truth)
	if !(ch.FITCNLL < ch.ActiveNLL) {
		return nil
	}
	ch.Kept = true
	res.Model = &nb
	res.HeldOut, res.HeldOutShare, res.HeldOutLost, res.Calibration = z, rho, lost, cal
	res.HeldOutError = LatentErrorRate(z, y)
	return nil
}

// budgetBound reports whether PASS-GP's budget bound in any batch.
func budgetBound(bs []BatchStats) bool {
	return slices.ContainsFunc(bs, func(b BatchStats) bool { return b.Trimmed })
}

// inducingSubset returns m distinct indices of [0, n) in ascending order,
// drawn from seed, or nil when m >= n (all of them).
func inducingSubset(seed uint64, n, m int) []int {
	if m >= n {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909))
	idx := rng.Perm(n)[:m]
	slices.Sort(idx)
	return idx
}

// binaryTruth returns 1 for the positive labels of y and 0 for the others:
// FitCalibration's classes of a binary classifier.
func binaryTruth(y []float64) []int {
	t := make([]int, len(y))
	for i, v := range y {
		if v > 0 {
			t[i] = 1
		}
	}
	return t
}

// String summarises the choice for a progress or training report.
func (ch *FITCChoice) String() string {
	switch {
	case ch.Failed != "":
		return fmt.Sprintf("FITC pass (%d inducing) failed, the active set's posterior stays: %s", ch.Inducing, ch.Failed)
	case ch.Kept:
		return fmt.Sprintf("FITC pass (%d inducing, %d sweeps, %v) kept: held-out NLL %.4f against the active set's %.4f", ch.Inducing, ch.Sweeps, ch.Elapsed.Round(time.Millisecond), ch.FITCNLL, ch.ActiveNLL)
	}
	return fmt.Sprintf("FITC pass (%d inducing, %d sweeps, %v) not kept: held-out NLL %.4f against the active set's %.4f", ch.Inducing, ch.Sweeps, ch.Elapsed.Round(time.Millisecond), ch.FITCNLL, ch.ActiveNLL)
}
