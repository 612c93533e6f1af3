package passgpfast

import (
	"fmt"
	"strings"
	"time"

	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// Report describes a finished binary classifier (WithReport).
type Report struct {
	// Index is the classifier's index and Class its positive class.
	Index int
	Class float64
	Name  string // model.FormatLabel(Class)
	// Active is |A|, Theta the final hyperparameters.
	Active  int
	Theta   []float64
	Elapsed time.Duration
	// Budget says where PASS-GP's budget first bound (empty: never).
	Budget string
	// Notes are the choices training made (FITC passes); Warnings its numerical trouble.
	Notes, Warnings []string
}

func newReport(k int, class float64, res *passgp.Result) Report {
	r := Report{Index: k, Class: class, Name: model.FormatLabel(class), Active: len(res.Model.Y),
		Theta: res.Model.Kernel.Params(), Elapsed: res.Elapsed, Budget: budgetNote(res.Batches), Warnings: Warnings(res)}
	if ch := res.BoundFITC; ch != nil {
		r.Notes = append(r.Notes, fitcNote(ch))
	}
	return r
}

// budgetNote says where PASS-GP's budget (--max-active) first bound, at
// which size, and from which batch on θ was kept; empty if it never did.
func budgetNote(bs []passgp.BatchStats) string {
	for _, b := range bs {
		if b.Trimmed {
			return fmt.Sprintf(" (the budget bound at %d active points in pass %d batch %d: theta kept from there)", b.Active, b.Pass+1, b.Batch+1)
		}
	}
	return ""
}

// Warnings describes the numerical trouble of a training run that the
// classifier was still built from: θ components at which the
// hyperparameter search stopped at a bound, EP runs that hit their sweep
// cap, held-out decisions no better than the larger class's and a
// calibration that decides one class everywhere.
func Warnings(res *passgp.Result) []string {
	w := atBound(res)
	nc := 0
	for _, b := range res.Batches {
		if b.NotConverged {
			nc++
		}
	}
	if nc > 0 {
		w = append(w, fmt.Sprintf("EP hit its sweep cap in %d of %d batches; the last iterate was used", nc, len(res.Batches)))
	}
	if res.NotConverged {
		w = append(w, "EP on the final active set hit its sweep cap: the classifier uses the last iterate")
	}
	if res.FITCNotConverged {
		w = append(w, "EP of the FITC pass hit its sweep cap, also with halved steps: the classifier uses the last iterate")
	}
	if res.HeldOut != nil && res.HeldOutError >= res.MajorityRate {
		w = append(w, fmt.Sprintf("on held-out predictions of its training points it errs %.2f%%, no better than always predicting the larger class (%.2f%%): its selection or hyperparameters failed (docs/method.md)",
			100*res.HeldOutError, 100*res.MajorityRate))
	}
	if c := res.Calibration; c != nil && c.Classes() == 1 {
		if lo, hi := c.Range(); hi <= 0.5 || lo >= 0.5 {
			w = append(w, fmt.Sprintf("its calibrated probability of the positive class stays within [%.3g, %.3g], so it decides the larger class everywhere: "+
				"the likeliest map of its held-out latents makes the smaller class the more probable one nowhere", lo, hi))
		}
	}
	if res.HypNotConverged > 0 {
		w = append(w, fmt.Sprintf("%d EP runs of the hyperparameter search hit their sweep cap: their last iterate gave the evidence and its gradient", res.HypNotConverged))
	}
	return w
}

// atBound names the θ components at which the search stopped at a bound,
// except ARD length scales that switched their feature off.
func atBound(res *passgp.Result) []string {
	names, theta := res.Model.Kernel.ParamNames(), res.Model.Kernel.Params()
	var at []string
	for j, b := range res.AtBound {
		// An ARD squared length scale at its upper bound switches its
		// feature off (Relevances), as ARD is meant to: not a warning.
		if b && j < len(names) && !(strings.HasPrefix(names[j], "t2[") && theta[j] > 1) {
			at = append(at, fmt.Sprintf("%s = %.3g", names[j], theta[j]))
		}
	}
	if len(at) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("the hyperparameter search stopped at a bound (%s): the evidence still rises beyond it; "+
		"hold the component with --theta and --hyp-every 0 if that is not wanted", strings.Join(at, ", "))}
}

// fitcNote summarises the FITC stage of a classifier for its report.
func fitcNote(ch *passgp.FITCPass) string {
	if ch.Failed != "" {
		return fmt.Sprintf("FITC pass (%d inducing, %d points) failed, the active set's posterior stays: %s", ch.Inducing, ch.Points, ch.Failed)
	}
	verdict := "not kept"
	if ch.Kept {
		verdict = "kept"
	}
	return fmt.Sprintf("FITC posterior (%d inducing, %d points, %d sweeps, %v) at theta %s %s: held-out NLL %.4f against the active set's %.4f",
		ch.Inducing, ch.Points, ch.Sweeps, ch.Elapsed.Round(time.Millisecond), formatTheta(ch.Theta), verdict, ch.FITCNLL, ch.ActiveNLL)
}

// formatTheta prints θ with four significant digits.
func formatTheta(theta []float64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range theta {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%.4g", v)
	}
	b.WriteByte(']')
	return b.String()
}
