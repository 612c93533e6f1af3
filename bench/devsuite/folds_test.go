package main

import (
	"slices"
	"testing"
)

// TestStratifiedFolds: the folds are disjoint and cover the points, each
// holds every class's share to within one point and n/k points to within
// one, and the same seed gives the same folds.
func TestStratifiedFolds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		counts map[float64]int // points per label
		k      int
	}{
		{"balanced binary", map[float64]int{-1: 50, 1: 50}, 5},
		{"imbalanced binary", map[float64]int{-1: 93, 1: 7}, 5},
		{"three classes, odd sizes", map[float64]int{0: 11, 1: 23, 2: 5}, 4},
		{"two folds", map[float64]int{0: 3, 1: 4, 2: 9}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var y []float64
			for _, c := range []float64{-1, 0, 1, 2} {
				for range tc.counts[c] {
					y = append(y, c)
				}
			}
			idx := subsample(len(y), 0, 7)
			folds := stratifiedFolds(y, idx, tc.k, 3)
			if len(folds) != tc.k {
				t.Fatalf("%d folds, want %d", len(folds), tc.k)
			}
			var all []int
			for f, fold := range folds {
				all = append(all, fold...)
				if d := len(fold) - len(y)/tc.k; d < 0 || d > 1 {
					t.Errorf("fold %d has %d points, want %d or %d", f, len(fold), len(y)/tc.k, len(y)/tc.k+1)
				}
				for c, n := range tc.counts {
					got := 0
					for _, i := range fold {
						if y[i] == c {
							got++
						}
					}
					if d := got - n/tc.k; d < 0 || d > 1 {
						t.Errorf("fold %d holds %d of class %v's %d points, want %d or %d", f, got, c, n, n/tc.k, n/tc.k+1)
					}
				}
				if tr := complement(idx, fold); len(tr)+len(fold) != len(y) {
					t.Errorf("fold %d: training part %d + test %d != %d", f, len(tr), len(fold), len(y))
				}
			}
			slices.Sort(all)
			for i, v := range all {
				if v != i {
					t.Fatalf("the folds hold %v, want each of 0..%d once", all, len(y)-1)
				}
			}
			again := stratifiedFolds(y, idx, tc.k, 3)
			for f := range folds {
				if !slices.Equal(folds[f], again[f]) {
					t.Errorf("fold %d differs on a second call with the same seed", f)
				}
			}
		})
	}
}

// TestSubsampleAndDropRare: a subsample has n distinct points (all of
// them for n = 0 or n beyond the size) and depends on its seed only;
// dropRare removes exactly the classes with fewer than k points.
func TestSubsampleAndDropRare(t *testing.T) {
	for _, tc := range []struct{ size, n, want int }{{100, 30, 30}, {100, 0, 100}, {10, 50, 10}} {
		s := subsample(tc.size, tc.n, 5)
		u := slices.Compact(slices.Sorted(slices.Values(s)))
		if len(s) != tc.want || len(u) != tc.want || u[0] < 0 || u[len(u)-1] >= tc.size {
			t.Errorf("subsample(%d, %d): %d points, %d distinct, want %d in [0, %d)", tc.size, tc.n, len(s), len(u), tc.want, tc.size)
		}
		if !slices.Equal(s, subsample(tc.size, tc.n, 5)) {
			t.Errorf("subsample(%d, %d) differs with the same seed", tc.size, tc.n)
		}
	}
	y := []float64{0, 0, 0, 1, 1, 2, 2, 2, 2, 3}
	kept, dropped := dropRare(y, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 3)
	if !slices.Equal(kept, []int{0, 1, 2, 5, 6, 7, 8}) || !slices.Equal(dropped, []float64{1, 3}) {
		t.Errorf("dropRare: kept %v, dropped %v; want [0 1 2 5 6 7 8] and [1 3]", kept, dropped)
	}
}
