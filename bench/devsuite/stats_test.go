package main

import (
	"math"
	"strings"
	"testing"
)

// TestStats: means, standard errors and paired differences against
// values computed by hand, to 1e-12.
func TestStats(t *testing.T) {
	const tol = 1e-12
	for _, tc := range []struct {
		x      []float64
		mean   float64
		se     float64 // NaN: undefined
		wantNa bool
	}{
		// Deviations ±1.5, ±0.5: s² = 5/3, SE = √(5/3)/2.
		{[]float64{1, 2, 3, 4}, 2.5, math.Sqrt(5.0/3) / 2, false},
		// Deviations 0.1, −0.1: s² = 0.02, SE = √0.02/√2 = 0.1.
		{[]float64{0.3, 0.1}, 0.2, 0.1, false},
		{[]float64{7, 7, 7}, 7, 0, false},
		{[]float64{3}, 3, 0, true},
	} {
		s := meanSE(tc.x)
		if math.Abs(s.Mean-tc.mean) > tol || (tc.wantNa != math.IsNaN(s.SE)) || (!tc.wantNa && math.Abs(s.SE-tc.se) > tol) {
			t.Errorf("meanSE(%v) = %+v, want mean %v, SE %v", tc.x, s, tc.mean, tc.se)
		}
	}
	// Fold differences 0.1, 0.3 (SE 0.1); point differences 0, 1, 0, 1
	// (mean 0.5, s² = 1/3, SE = √(1/3)/2 ≈ 0.2887).
	d := pairedDiff([]float64{0.2, 0.1}, []float64{0.3, 0.4}, []float64{0, 0, 1, 0}, []float64{0, 1, 1, 1})
	pse := math.Sqrt(1.0/3) / 2
	if math.Abs(d.Mean-0.2) > tol || math.Abs(d.FoldSE-0.1) > tol || math.Abs(d.PointSE-pse) > tol || d.SE != d.PointSE {
		t.Errorf("pairedDiff = %+v, want mean 0.2, fold SE 0.1, point SE %v, SE the larger", d, pse)
	}
	same := pairedDiff([]float64{0.2, 0.1}, []float64{0.2, 0.1}, []float64{1, 0}, []float64{1, 0})
	if same != (Diff{}) || verdict(same) != 0 {
		t.Errorf("identical columns: %+v (verdict %d), want all zero", same, verdict(same))
	}
	for _, tc := range []struct {
		d    Diff
		want int
	}{{Diff{Mean: -0.2, SE: 0.1}, 1}, {Diff{Mean: 0.2, SE: 0.1}, -1}, {Diff{Mean: 0.05, SE: 0.1}, 0}, {Diff{Mean: -0.1, SE: 0.1}, 0}} {
		if got := verdict(tc.d); got != tc.want {
			t.Errorf("verdict(%+v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

// TestScorePredictions: predict's CSV is scored per point (0/1 error of
// its predicted class, Brier summed over the classes, NLP of the true
// class clamped at 1e-300), whatever the order of the columns, and a
// malformed file is an error naming the line.
func TestScorePredictions(t *testing.T) {
	const tol = 1e-12
	in := "predicted,p_-1,p_1\n1,0.2,0.8\n-1,0.9,0.1\n1,0.4,0.6\n-1,1,0\n"
	errs, briers, nlps, err := scorePredictions(strings.NewReader(in), "p", []float64{1, -1, -1, 1})
	if err != nil {
		t.Fatal(err)
	}
	wantE := []float64{0, 0, 1, 1}
	wantB := []float64{2 * 0.04, 2 * 0.01, 2 * 0.36, 2}
	wantN := []float64{-math.Log(0.8), -math.Log(0.9), -math.Log(0.4), -math.Log(1e-300)}
	for i := range wantE {
		if errs[i] != wantE[i] || math.Abs(briers[i]-wantB[i]) > tol || math.Abs(nlps[i]-wantN[i]) > tol {
			t.Errorf("point %d: error %v, Brier %v, NLP %v; want %v, %v, %v", i, errs[i], briers[i], nlps[i], wantE[i], wantB[i], wantN[i])
		}
	}
	three := "predicted,p_2,p_0,p_1\n2,0.7,0.1,0.2\n"
	if e, b, n, err := scorePredictions(strings.NewReader(three), "p", []float64{1}); err != nil || e[0] != 1 ||
		math.Abs(b[0]-(0.49+0.01+0.64)) > tol || math.Abs(n[0]+math.Log(0.2)) > tol {
		t.Errorf("three classes: %v %v %v %v", e, b, n, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "no header"},
		{"pred,p_1,p_2\n", "header"},
		{"predicted,q_1,p_2\n", `column "q_1"`},
		{"predicted,p_-1,p_1\n1,0.5\n", "line 2: 2 fields"},
		{"predicted,p_-1,p_1\n1,0.5,1.5\n", "line 2: probability"},
		{"predicted,p_-1,p_2\n2,0.5,0.5\n", "true label 1 is not among"},
		{"predicted,p_-1,p_1\n1,0.5,0.5\n", "1 rows for 2 test points"},
		{"predicted,p_-1,p_1\n1,.5,.5\n1,.5,.5\n1,.5,.5\n", "line 4: more rows"},
	} {
		if _, _, _, err := scorePredictions(strings.NewReader(tc.in), "p", []float64{1, 1}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.want)
		}
	}
}

// TestGapStat: the gap's standard error is the folds' where they vary
// more than the binomial noise of the two error rates, and that noise,
// √(h(1−h)/n + e(1−e)/N), where the folds agree by chance.
func TestGapStat(t *testing.T) {
	agree := []Fold{{Train: 400, Test: 100, Error: 0.25, HeldOut: 0.23}, {Train: 400, Test: 100, Error: 0.25, HeldOut: 0.23}}
	g := gapStat(agree)
	want := math.Sqrt(0.23*0.77/400 + 0.25*0.75/200)
	if math.Abs(g.Mean+0.02) > 1e-12 || math.Abs(g.SE-want) > 1e-12 {
		t.Errorf("folds that agree: %+v, want mean -0.02, SE %v", g, want)
	}
	vary := []Fold{{Train: 400, Test: 100, Error: 0.1, HeldOut: 0.3}, {Train: 400, Test: 100, Error: 0.4, HeldOut: 0.2}}
	g = gapStat(vary)
	if f := meanSE([]float64{0.2, -0.2}); math.Abs(g.SE-f.SE) > 1e-12 || f.SE <= math.Sqrt(0.25*0.75/400+0.25*0.75/200) {
		t.Errorf("folds that vary: %+v, want the folds' SE %v", g, f.SE)
	}
}
