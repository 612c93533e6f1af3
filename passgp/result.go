package passgp

import (
	"time"

	"github.com/passgp-fast/passgp-fast/calib"
)

// Result is a trained binary classifier and the record of its training.
type Result struct {
	Model   *Binary
	Batches []BatchStats
	Elapsed time.Duration
	// Theta0 is the initial θ, Evals the total log Z_EP evaluations spent
	// on hyperparameters.
	Theta0 []float64
	Evals  int
	// AtBound marks the components of θ at which the optimisation that set
	// them stopped at a bound (Options.Lower and Upper, or ep's): the
	// evidence still rose beyond it, e.g. the signal variance of a
	// separable active set. nil when θ was not optimised.
	AtBound []bool
	// HeldOut is, for every training point i of HeldOutRows (nil: all, in
	// order), the latent z_i = m_i/√(1+v_i) of a predictive distribution
	// that did not see its label (heldOutLatents), and HeldOutShare the
	// share v_i/k(x_i, x_i) of the prior variance it leaves. Calibration is
	// fitted on them (nil in TrainMulti's results: MultiResult.Calibration).
	// All are nil for a run stopped early.
	HeldOut      []float64
	HeldOutShare []float64
	HeldOutRows  []int
	Calibration  *calib.Calibration
	// HeldOutError is the error rate of the raw decisions (z > 0) on the
	// held-out latents, and MajorityRate that of always predicting the
	// larger class: a classifier with HeldOutError >= MajorityRate has
	// learned nothing its training data can confirm, e.g. because its
	// selection rule or its hyperparameters failed (docs/method.md). Both are 0 for a run stopped early.
	HeldOutError, MajorityRate float64
	// HeldOutLost counts the invariance stage's leave-group-out latents
	// lost to rounding (groupHeldOut), taken as 0 in HeldOut and 1 in
	// HeldOutShare.
	HeldOutLost int
	// BoundFITC records the FITC pass of Options.BoundFITC (nil: none
	// ran, because the budget never bound or the option is off).
	BoundFITC *FITCPass
	// FITCNotConverged is set when the FITC pass's EP run did not converge
	// (ep.FITCNotConvergedError): the classifier uses its last iterate.
	FITCNotConverged bool
	// NotConverged is set when the EP run that gave the classifier's sites
	// hit its sweep cap (Options.EP.MaxSweeps): the classifier uses the
	// last iterate. Batches[i].NotConverged records the same per batch.
	NotConverged bool
	// HypNotConverged counts the EP runs of every θ search (the batches'
	// and the final one) that hit the sweep cap.
	HypNotConverged int
}

// hypNotConverged sums BatchStats.HypNotConverged.
func hypNotConverged(stats []BatchStats) int {
	n := 0
	for _, b := range stats {
		n += b.HypNotConverged
	}
	return n
}

// BatchStats records one batch of the active set loop.
type BatchStats struct {
	Pass, Batch int // 0-based
	// Active is |A| after the batch's deletions and inclusions.
	Active, Included, Deleted int
	// Unscored counts the batch points left out by MaxActive's cap on the
	// candidates of one batch (budgetCandidates).
	Unscored int
	// Scored counts the batch's scored candidates, Wrong those with a
	// predictive probability of their label below 1/2 (errorFalling).
	Scored, Wrong int
	// Trimmed is set when MaxActive bound in this batch (the first such
	// batch is the last whose θ was optimised; see Options.MaxActive).
	Trimmed  bool
	LogZ     float64 // log Z_EP of A before the update
	Theta    []float64
	HypEvals int // log Z_EP evaluations of the optimisation (0: none)
	// AtBound marks the θ components at which the batch's optimisation
	// stopped at a bound (nil: θ not optimised in this batch).
	AtBound  []bool
	EPSweeps int
	// NotConverged is set when EP hit its sweep cap; the last iterate was
	// used (the next batch continues from its sites).
	NotConverged bool
	// HypNotConverged counts the EP runs of the batch's hyperparameter
	// search that hit the sweep cap of both schedules (ep.OptimizeResult.
	// NotConvergedEvals): their last iterate gave the evidence and its
	// gradient.
	HypNotConverged int
	// Augmented marks batches of the retraining with invariances.
	Augmented                  bool
	HypTime, EPTime, ScoreTime time.Duration
}
