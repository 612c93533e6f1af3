package passgpfast

import (
	"github.com/passgp-fast/passgp-fast/data"
)

// scaledTol is how far beyond [-1, 1] auto still takes data for scaled:
// svm-scale's arithmetic, or FitMinMax's, rounds the ends of the range to
// a few ulps beyond it.
const scaledTol = 1e-9

// unitSpread bounds the standard deviations of features that auto takes
// for a common scale near 1: [1/unitSpread, unitSpread].
const unitSpread = 4

// ResolveScale returns the scaling (Config.Scale as stored: "standard",
// "minmax" or "" for none) that mode asks for on the training data ds.
// "auto" scales each feature's range to [-1, 1], as svm-scale does for
// LIBSVM, unless the data are on a common scale near 1 already (every
// value in [-1, 1], or every non-constant feature's standard deviation in
// [1/4, 4], where one length scale learned from the evidence fits every
// feature), and not with augment, whose pixel shifts need the images as
// they are. With features on scales of hundreds the SE kernel's initial
// length scale sees every point as unrelated to every other, the search
// never moves it, and the classifier learns nothing (docs/method.md,
// Section 1).
func ResolveScale(mode string, ds *data.Dataset, augment bool) (string, error) {
	return resolveScale(mode, lazyStats(ds), augment)
}

// resolveScale is ResolveScale on the training data's statistics (called
// only for mode "auto").
func resolveScale(mode string, st func() *data.Stats, augment bool) (string, error) {
	switch mode {
	case "auto":
		if augment {
			return "", nil
		}
		if s := st(); s.InRange(-1-scaledTol, 1+scaledTol) || unitScale(s.StdDev()) {
			return "", nil
		}
		return "minmax", nil
	case "standard", "minmax":
		if augment {
			return "", configErr("--scale %s cannot be combined with Config.Augment, whose pixel shifts need the images as they are", mode)
		}
		return mode, nil
	case "none", "":
		return "", nil
	}
	return "", configErr("--scale: want auto, standard, minmax or none, got %q", mode)
}

// unitScale reports whether every non-zero standard deviation in sd lies
// in [1/unitSpread, unitSpread].
func unitScale(sd []float64) bool {
	for _, s := range sd {
		if s > 0 && (s < 1.0/unitSpread || s > unitSpread) {
			return false
		}
	}
	return true
}

// lazyStats returns a function that computes ds's statistics on its first
// call.
func lazyStats(ds *data.Dataset) func() *data.Stats {
	var s *data.Stats
	return func() *data.Stats {
		if s == nil {
			s = data.StatsOf(ds)
		}
		return s
	}
}
