package main

import "math"

// Stat is a mean and its standard error.
type Stat struct {
	Mean, SE float64
}

// meanSE returns the mean of x and its standard error s/√n, s being the
// sample standard deviation (divisor n − 1); the standard error is NaN
// for fewer than two values.
func meanSE(x []float64) Stat {
	n := float64(len(x))
	if len(x) == 0 {
		return Stat{math.NaN(), math.NaN()}
	}
	var m float64
	for _, v := range x {
		m += v
	}
	m /= n
	if len(x) < 2 {
		return Stat{m, math.NaN()}
	}
	var ss float64
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	return Stat{m, math.Sqrt(ss / (n - 1) / n)}
}

// Diff is a paired difference b − a: its mean over folds, the standard
// error of that mean from the k per-fold differences (FoldSE), and the
// standard error from the N per-point differences of the out-of-fold
// predictions (PointSE; every point is predicted once, by the model that
// did not see it). FoldSE holds the variation between training sets but
// rests on k values; PointSE rests on N values but holds none of it.
// SE is the larger, which the summary uses.
type Diff struct {
	Mean, FoldSE, PointSE, SE float64
}

// pairedDiff returns the paired difference b − a of per-fold figures fa,
// fb and per-point losses pa, pb.
func pairedDiff(fa, fb, pa, pb []float64) Diff {
	df := make([]float64, len(fa))
	for i := range fa {
		df[i] = fb[i] - fa[i]
	}
	dp := make([]float64, len(pa))
	for i := range pa {
		dp[i] = pb[i] - pa[i]
	}
	f, p := meanSE(df), meanSE(dp)
	return Diff{Mean: f.Mean, FoldSE: f.SE, PointSE: p.SE, SE: math.Max(f.SE, p.SE)}
}

// verdict is +1 where the difference d (candidate − baseline of a loss)
// is below −SE (the candidate better by more than one standard error),
// −1 where it is above SE, else 0.
func verdict(d Diff) int {
	switch {
	case d.Mean < -d.SE:
		return 1
	case d.Mean > d.SE:
		return -1
	}
	return 0
}
