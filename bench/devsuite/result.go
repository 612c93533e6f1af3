package main

import (
	"math"
	"slices"
)

// SetResult is one set's report.
type SetResult struct {
	Name, About, Source string
	Skipped             string `json:",omitempty"` // why the set did not run
	// Available is the size of the set's training part, N the points used
	// (the subsample, less DroppedClasses: classes with fewer than k
	// points), D the features, K the classes.
	Available, N, D, K int
	DroppedClasses     []float64 `json:",omitempty"`
	Columns            []ColumnResult
	Diffs              []DiffResult
}

// ColumnResult is one column's mean and standard error over the folds.
// HeldOut is train's held-out estimate of the error and Gap its excess
// over the fold's test error, where every fold printed one (Estimated):
// how well the estimate, from each fold's training part alone, predicts
// the error on the held-out part. Gap's SE is gapStat's.
type ColumnResult struct {
	Name                       string
	Error, Brier, NLP, Seconds Stat
	Estimated                  bool
	HeldOut, Gap               Stat
	Folds                      []Fold
}

// DiffResult is the paired difference B − A of two passgp-fast columns
// (negative: B better), and the ratio of their total training times.
type DiffResult struct {
	A, B              string
	Error, Brier, NLP Diff
	TimeRatio         float64
}

// diffPairs are the pairs of columns (indices into the columns) whose
// differences are reported: the candidate against the defaults, and
// against --baseline when given. LIBSVM has no per-point losses and no
// difference.
func diffPairs(cols []column) [][2]int {
	cand := -1
	for i, c := range cols {
		if c.Name == "candidate" {
			cand = i
		}
	}
	var out [][2]int
	for i, c := range cols {
		if i != cand && !c.LIBSVM && cand >= 0 {
			out = append(out, [2]int{i, cand})
		}
	}
	return out
}

// summarise fills r's columns and differences from the fold runs and
// the per-point losses of each column.
func (r *SetResult) summarise(cols []column, runs [][]Fold, pts []losses) {
	for c, col := range cols {
		cr := ColumnResult{Name: col.Name, Folds: runs[c]}
		cr.Error, cr.Brier = meanSE(field(runs[c], func(f Fold) float64 { return f.Error })), meanSE(field(runs[c], func(f Fold) float64 { return f.Brier }))
		cr.NLP, cr.Seconds = meanSE(field(runs[c], func(f Fold) float64 { return f.NLP })), meanSE(field(runs[c], func(f Fold) float64 { return f.Seconds }))
		cr.Estimated = len(runs[c]) > 0 && !slices.ContainsFunc(runs[c], func(f Fold) bool { return f.HeldOut < 0 })
		if cr.Estimated {
			cr.HeldOut = meanSE(field(runs[c], func(f Fold) float64 { return f.HeldOut }))
			cr.Gap = gapStat(runs[c])
		}
		r.Columns = append(r.Columns, cr)
	}
	for _, p := range diffPairs(cols) {
		a, b := p[0], p[1]
		d := DiffResult{A: cols[a].Name, B: cols[b].Name}
		fd := func(get func(Fold) float64) ([]float64, []float64) { return field(runs[a], get), field(runs[b], get) }
		ea, eb := fd(func(f Fold) float64 { return f.Error })
		d.Error = pairedDiff(ea, eb, pts[a].err, pts[b].err)
		ba, bb := fd(func(f Fold) float64 { return f.Brier })
		d.Brier = pairedDiff(ba, bb, pts[a].brier, pts[b].brier)
		na, nb := fd(func(f Fold) float64 { return f.NLP })
		d.NLP = pairedDiff(na, nb, pts[a].nlp, pts[b].nlp)
		ta, tb := fd(func(f Fold) float64 { return f.Seconds })
		d.TimeRatio = sum(tb) / sum(ta)
		r.Diffs = append(r.Diffs, d)
	}
}

// gapStat returns the mean over the folds fs of the held-out estimate's
// excess over the fold's test error, with the larger of two standard
// errors: the folds' (k values, which can fall far below the error's
// sampling noise by chance) and the binomial one of the two error rates
// it compares, √(h(1−h)/n + e(1−e)/N): h the mean estimate, on training
// parts of mean size n, and e the error of the N out-of-fold points, as
// bench/mlbench judges the estimate against a test split.
func gapStat(fs []Fold) Stat {
	g := meanSE(field(fs, func(f Fold) float64 { return f.HeldOut - f.Error }))
	var h, n, e, nt float64
	for _, f := range fs {
		h += f.HeldOut
		n += float64(f.Train)
		e += f.Error * float64(f.Test)
		nt += float64(f.Test)
	}
	h, n, e = h/float64(len(fs)), n/float64(len(fs)), e/nt
	if b := math.Sqrt(h*(1-h)/n + e*(1-e)/nt); !(g.SE >= b) {
		g.SE = b
	}
	return g
}

// field returns get of every fold.
func field(fs []Fold, get func(Fold) float64) []float64 {
	out := make([]float64, len(fs))
	for i, f := range fs {
		out[i] = get(f)
	}
	return out
}

func sum(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

// Summary counts, over the sets that ran, where B is better or worse
// than A by more than one standard error (Diff.SE), and the geometric
// mean of the training-time ratios.
type Summary struct {
	A, B                       string
	Sets                       int
	ErrorBetter, ErrorWorse    int
	BrierBetter, BrierWorse    int
	NLPBetter, NLPWorse        int
	GeoMeanTimeRatio           float64
	MeanErrorDiff, MeanNLPDiff float64 // unweighted means over sets of the differences
}

// summary returns one Summary per difference reported.
func summary(res []SetResult) []Summary {
	var out []Summary
	for _, r := range res {
		for j, d := range r.Diffs {
			if j >= len(out) {
				out = append(out, Summary{A: d.A, B: d.B})
			}
			s := &out[j]
			s.Sets++
			count(verdict(d.Error), &s.ErrorBetter, &s.ErrorWorse)
			count(verdict(d.Brier), &s.BrierBetter, &s.BrierWorse)
			count(verdict(d.NLP), &s.NLPBetter, &s.NLPWorse)
			s.GeoMeanTimeRatio += math.Log(d.TimeRatio)
			s.MeanErrorDiff += d.Error.Mean
			s.MeanNLPDiff += d.NLP.Mean
		}
	}
	for i := range out {
		n := float64(out[i].Sets)
		out[i].GeoMeanTimeRatio = math.Exp(out[i].GeoMeanTimeRatio / n)
		out[i].MeanErrorDiff /= n
		out[i].MeanNLPDiff /= n
	}
	return out
}

func count(v int, better, worse *int) {
	switch v {
	case 1:
		*better++
	case -1:
		*worse++
	}
}
