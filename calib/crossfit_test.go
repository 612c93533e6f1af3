package calib

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// TestCrossFit: the folds partition the points, stratified by class; each
// fold's calibration is the one a brute-force loop fits on the other
// folds; and scoring each fold through its own calibration is no more
// optimistic than scoring every point through the calibration fitted on
// all of them; CrossFitNLL is the mean of those scores.
func TestCrossFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	for _, k := range []int{1, 3} {
		n := 600
		z, rho := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
		truth := make([]int, n)
		classes := max(k, 2)
		for i := range n {
			truth[i] = rng.IntN(classes)
			for j := range k {
				s := -1.0
				if truth[i] == j || k == 1 && truth[i] == 1 {
					s = 1
				}
				z.Set(i, j, s+1.5*rng.NormFloat64())
				rho.Set(i, j, rng.Float64()*0.3)
			}
		}
		all, err := Fit(z, rho, truth)
		if err != nil {
			t.Fatal(err)
		}
		folds, cals, err := CrossFit(z, rho, truth, 7)
		if err != nil {
			t.Fatal(err)
		}
		var seen []int
		for f, rows := range folds {
			seen = append(seen, rows...)
			counts := make([]int, classes)
			for _, i := range rows {
				counts[truth[i]]++
			}
			for c := range classes {
				if d := counts[c]*CrossFitFolds - countOf(truth, c); d > CrossFitFolds || d < -CrossFitFolds {
					t.Errorf("K=%d fold %d: %d of class %d's %d points", k, f, counts[c], c, countOf(truth, c))
				}
			}
			var rest []int
			for i := range n {
				if !slices.Contains(rows, i) {
					rest = append(rest, i)
				}
			}
			want, err := Fit(gatherMatRows(z, rest), gatherMatRows(rho, rest), gather(truth, rest))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want, cals[f]) {
				t.Errorf("K=%d fold %d: calibration differs from the brute-force fit", k, f)
			}
		}
		slices.Sort(seen)
		if !slices.Equal(seen, seq(n)) {
			t.Fatalf("K=%d: the folds do not partition the points", k)
		}
		var cross float64
		for f, rows := range folds {
			cross += cals[f].MeanNLL(gatherMatRows(z, rows), gatherMatRows(rho, rows), gather(truth, rows)) * float64(len(rows))
		}
		cross /= float64(n)
		if got, err := CrossFitNLL(z, rho, truth, 7); err != nil || math.Abs(got-cross) > 1e-12*cross {
			t.Errorf("K=%d: CrossFitNLL %v (error %v), the folds' NLLs give %v", k, got, err, cross)
		}
		if in := all.MeanNLL(z, rho, truth); !(cross >= in) {
			t.Errorf("K=%d: cross-fitted NLL %.5f below the in-sample %.5f", k, cross, in)
		}
	}
}

func countOf(v []int, c int) int {
	n := 0
	for _, x := range v {
		if x == c {
			n++
		}
	}
	return n
}

// seq returns 0, 1, ..., n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestCrossFitThreads: the folds' fits give the same calibrations, bit for
// bit, one after the other (thread budget 1) or side by side.
func TestCrossFitThreads(t *testing.T) {
	old := la.Threads()
	defer la.SetThreads(old)
	z, rho, truth := noisyLatents(3, 0.1)
	var runs [][]*Calibration
	for _, th := range []int{1, 4} {
		la.SetThreads(th)
		_, cals, err := CrossFit(z, rho, truth, 3)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, cals)
	}
	for f, a := range runs[0] {
		b := runs[1][f]
		if a.A != b.A || a.Eps != b.Eps || !slices.Equal(a.B, b.B) || !slices.Equal(a.Slopes, b.Slopes) {
			t.Errorf("fold %d: thread budget 1: %+v, 4: %+v", f, a, b)
		}
	}
}
