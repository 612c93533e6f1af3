package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Report is what --json writes: the protocol's settings, every set's
// figures and the summaries.
type Report struct {
	K         int
	Seed      uint64
	Columns   []column
	Sets      []SetResult
	Summaries []Summary
	WallSec   float64
}

// writeText prints one set's table: a row per column (mean ± standard
// error over the folds) and a row per paired difference (mean ± SE, SE
// being the larger of the fold and the point standard errors).
func writeText(w io.Writer, r SetResult, k int) {
	if r.Skipped != "" {
		fmt.Fprintf(w, "\n%s: skipped (%s)\n", r.Name, r.Skipped)
		return
	}
	fmt.Fprintf(w, "\n%s: %s\n  %s; %d of %d points, %d features, %d classes, %d folds", r.Name, r.About, r.Source, r.N, r.Available, r.D, r.K, k)
	if len(r.DroppedClasses) > 0 {
		fmt.Fprintf(w, "; classes %v dropped (fewer than %d points)", r.DroppedClasses, k)
	}
	fmt.Fprintf(w, "\n  %-22s %-18s %-18s %-18s %s\n", "", "error", "Brier", "NLP", "train s")
	for _, c := range r.Columns {
		fmt.Fprintf(w, "  %-22s %-18s %-18s %-18s %s\n", c.Name, pm(c.Error, "%.4f"), pm(c.Brier, "%.4f"), pm(c.NLP, "%.4f"), pm(c.Seconds, "%.2f"))
	}
	for _, d := range r.Diffs {
		fmt.Fprintf(w, "  %-22s %-18s %-18s %-18s x%.2f\n", d.B+" - "+d.A, dpm(d.Error), dpm(d.Brier), dpm(d.NLP), d.TimeRatio)
	}
	for _, c := range r.Columns {
		if c.Estimated {
			fmt.Fprintf(w, "  %-22s held-out estimate %s, minus the folds' error %s\n", c.Name, pm(c.HeldOut, "%.4f"), spm(c.Gap))
		}
	}
}

// spm formats a signed mean ± standard error.
func spm(s Stat) string {
	return fmt.Sprintf("%+.4f ± %.4f", s.Mean, s.SE)
}

// pm formats a mean ± standard error.
func pm(s Stat, f string) string {
	return fmt.Sprintf(f+" ± "+f, s.Mean, s.SE)
}

// dpm formats a difference: signed mean ± SE, with a marker where it is
// beyond one SE (+ the second column better, - worse).
func dpm(d Diff) string {
	mark := map[int]string{1: " +", -1: " -", 0: ""}[verdict(d)]
	return fmt.Sprintf("%+.4f ± %.4f%s", d.Mean, d.SE, mark)
}

// writeSummary prints one line per difference.
func writeSummary(w io.Writer, ss []Summary) {
	for _, s := range ss {
		fmt.Fprintf(w, "\nsummary, %s against %s over %d sets (beyond 1 SE): error better %d, worse %d; Brier better %d, worse %d; NLP better %d, worse %d; mean differences error %+.4f, NLP %+.4f; geometric-mean training-time ratio %.2f\n",
			s.B, s.A, s.Sets, s.ErrorBetter, s.ErrorWorse, s.BrierBetter, s.BrierWorse, s.NLPBetter, s.NLPWorse, s.MeanErrorDiff, s.MeanNLPDiff, s.GeoMeanTimeRatio)
	}
}

// writeHeader prints the columns compared.
func writeHeader(w io.Writer, cols []column, k int, seed uint64) {
	fmt.Fprintf(w, "devsuite: %d-fold stratified cross-validation (seed %d) on training data only\n", k, seed)
	for _, c := range cols {
		switch {
		case c.LIBSVM:
			fmt.Fprintf(w, "  %-10s LIBSVM: svm-scale, 5-fold CV grid C in %v, gamma in %v/d, -b 1\n", c.Name, svmC, svmGamma)
		case len(c.Args) == 0:
			fmt.Fprintf(w, "  %-10s train (no extra flags)\n", c.Name)
		default:
			fmt.Fprintf(w, "  %-10s train %s\n", c.Name, strings.Join(c.Args, " "))
		}
	}
	fmt.Fprintln(w, "  differences: second column minus first, mean over folds ± the larger of the fold-paired and the point-paired SE; + / - marks the second better / worse by more than 1 SE")
}

// writeJSON writes rep to path.
func writeJSON(path string, rep Report) error {
	b, err := json.MarshalIndent(rep, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
