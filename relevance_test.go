package passgpfast

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/passgp-fast/passgp-fast/synth"
)

// TestRelevancesRankRelevantFirst: on seeded tasks whose first R of D
// features carry the classes and the rest are noise (synth), seard+bias
// gives every relevant feature a higher mean relevance than every
// irrelevant one (one-vs-rest: on the mean over the classes; a class's
// own classifier may rightly lean on its own group alone). The assertion
// is on ranks only, so it holds whatever BLAS kernels run. The vectors
// are consistent: Raw = 1/t2, Normalized has max 1, Mean is their mean,
// and the evaluation's Metrics carry the same relevances.
func TestRelevancesRankRelevantFirst(t *testing.T) {
	for _, c := range []struct {
		name string
		task synth.Task
		n    int
	}{
		{"binary", synth.Task{Classes: 2, D: 8, Relevant: 3, Sep: 2.5}, 600},
		{"three classes", synth.Task{Classes: 3, D: 8, Relevant: 3, Sep: 2.5}, 600},
	} {
		t.Run(c.name, func(t *testing.T) {
			ds, err := synth.Dataset(c.task, c.n, 12)
			if err != nil {
				t.Fatal(err)
			}
			clf, err := FitDataset(context.Background(), ds, WithKernel("seard+bias"), WithSeed(5), WithThreads(1), WithSchedule(100, 3, 0))
			if err != nil {
				t.Fatal(err)
			}
			r, ok := clf.Relevances()
			if !ok {
				t.Fatal("seard+bias classifier: Relevances not ok")
			}
			checkRelevances(t, clf, r)
			rank := r.Ranked()
			if top := slices.Sorted(slices.Values(rank[:c.task.Relevant])); !slices.Equal(top, []int{0, 1, 2}) {
				t.Errorf("ranking %v (mean %.3g): want features 0, 1, 2 first", rank, r.Mean)
			}
			met, _, err := clf.Evaluate(context.Background(), ds)
			if err != nil {
				t.Fatal(err)
			}
			if met.Relevance == nil || !slices.Equal(met.Relevance.Mean, r.Mean) {
				t.Errorf("Metrics.Relevance = %+v, want %v", met.Relevance, r.Mean)
			}
		})
	}
}

// checkRelevances checks r against the kernels of clf within rounding
// (relative 1e-12).
func checkRelevances(t *testing.T, clf *Classifier, r Relevances) {
	t.Helper()
	bs := clf.Model().Binaries
	if len(r.Raw) != len(bs) || len(r.Normalized) != len(bs) || len(r.Mean) != clf.D() {
		t.Fatalf("shapes: %d raw, %d normalised for %d classifiers; %d means for %d features", len(r.Raw), len(r.Normalized), len(bs), len(r.Mean), clf.D())
	}
	mean := make([]float64, clf.D())
	for k, b := range bs {
		len2, _ := ardLen2(b.Kernel)
		if slices.Max(r.Normalized[k]) != 1 {
			t.Errorf("classifier %d: normalised max %v", k, slices.Max(r.Normalized[k]))
		}
		for j, l := range len2 {
			if math.Abs(r.Raw[k][j]*l-1) > 1e-12 {
				t.Errorf("classifier %d feature %d: raw %v for t2 %v", k, j, r.Raw[k][j], l)
			}
			mean[j] += r.Normalized[k][j] / float64(len(bs))
		}
	}
	for j := range mean {
		if math.Abs(mean[j]-r.Mean[j]) > 1e-12 {
			t.Errorf("mean[%d] = %v, want %v", j, r.Mean[j], mean[j])
		}
	}
}

// TestRelevancesNonARD: kernels without a length scale per feature give
// the zero Relevances and ok false, and no relevance in the metrics.
func TestRelevancesNonARD(t *testing.T) {
	ds, err := synth.Dataset(synth.Task{Classes: 2, D: 4}, 80, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, kern := range []string{"se", "se+bias"} {
		clf, err := FitDataset(context.Background(), ds, WithKernel(kern), WithSeed(1), WithThreads(1), WithSchedule(20, 2, 1))
		if err != nil {
			t.Fatal(err)
		}
		if r, ok := clf.Relevances(); ok || r.Raw != nil || r.Mean != nil {
			t.Errorf("%s: Relevances() = %+v, %v; want zero, false", kern, r, ok)
		}
		if est, ok := clf.HeldOut(); !ok || est.Relevance != nil {
			t.Errorf("%s: held-out metrics relevance %+v (ok %v), want nil", kern, est.Relevance, ok)
		}
	}
}

// TestRelevancesRankedIgnored: Ranked orders by Mean with ties by index,
// and Ignored counts the features below a fraction of the largest.
func TestRelevancesRankedIgnored(t *testing.T) {
	for _, c := range []struct {
		mean    []float64
		rank    []int
		ignored int
	}{
		{[]float64{0.2, 1, 0.005, 0.2}, []int{1, 0, 3, 2}, 1},
		{[]float64{1}, []int{0}, 0},
		{[]float64{0.5, 0.001, 0.004, 0.006}, []int{0, 3, 2, 1}, 2},
		{nil, []int{}, 0},
	} {
		r := Relevances{Mean: c.mean}
		if got := r.Ranked(); !slices.Equal(got, c.rank) {
			t.Errorf("Ranked(%v) = %v, want %v", c.mean, got, c.rank)
		}
		if got := r.Ignored(0.01); got != c.ignored {
			t.Errorf("Ignored(%v) = %d, want %d", c.mean, got, c.ignored)
		}
	}
}
