package passgp

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// toyImages returns n 4×4 images (background −1) with one bright pixel
// whose position encodes a point of the 2-D toy problem, and its labels.
func toyImages(n int) (*mat.Dense, []float64) {
	x := mat.NewDense(n, 16, nil)
	xs, ys := toy(n, 24)
	for i := 0; i < n; i++ {
		r := int(math.Min(3, math.Max(0, (xs.At(i, 0)+1.5)/0.75)))
		c := int(math.Min(3, math.Max(0, (xs.At(i, 1)+1.5)/0.75)))
		for p := 0; p < 16; p++ {
			x.Set(i, p, -1)
		}
		x.Set(i, r*4+c, 1)
	}
	return x, ys
}

// TestTrainAugmented: the invariance stage run on its own from a first
// stage's classifier gives the same classifier as Train with
// Options.Augment, which runs both stages in one call.
func TestTrainAugmented(t *testing.T) {
	n := 120
	x, y := toyImages(n)
	o := Options{Init: 20, Sub: 2, HypMaxEvals: 3, Seed: 5, Threads: 1}
	first, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	both := o
	both.Augment, both.ImageW, both.ImageH, both.AugmentPInc = 4, 4, 4, 0.95
	want, err := Train(context.Background(), x, y, &both)
	if err != nil {
		t.Fatal(err)
	}
	second := Options{Sub: 2, Seed: 5, Threads: 1, Augment: 4, ImageW: 4, ImageH: 4, AugmentPInc: 0.95}
	got, err := TrainAugmented(context.Background(), first.Model, &second)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Model.Active, want.Model.Active) {
		t.Fatalf("active sets differ:\n got %v\nwant %v", got.Model.Active, want.Model.Active)
	}
	if len(got.Model.Active) <= len(first.Model.Active) {
		t.Errorf("|A| %d after the invariance stage, %d before: no translated image included", len(got.Model.Active), len(first.Model.Active))
	}
	if !slices.Equal(got.Model.Kernel.Params(), first.Model.Kernel.Params()) {
		t.Errorf("θ changed: %v -> %v", first.Model.Kernel.Params(), got.Model.Kernel.Params())
	}
	// Sub 2 × the default 2 passes.
	if len(got.Batches) != 4 || len(want.Batches) != len(first.Batches)+4 {
		t.Errorf("batches: second stage %d (want 4), both stages %d (want %d)", len(got.Batches), len(want.Batches), len(first.Batches)+4)
	}
	pg, pw := make([]float64, n), make([]float64, n)
	got.Model.PredictTo(pg, x)
	want.Model.PredictTo(pw, x)
	for i := range pg {
		if math.Abs(pg[i]-pw[i]) > 1e-12 {
			t.Fatalf("prediction %d: %v vs %v", i, pg[i], pw[i])
		}
	}

	for _, bad := range []Options{
		{Sub: 2},                           // no Augment
		{Augment: 4, ImageW: 3, ImageH: 3}, // wrong geometry
		{Augment: 4, ImageW: 4, ImageH: 4, Resume: &State{}},
	} {
		if _, err := TrainAugmented(context.Background(), first.Model, &bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestCancelInStages: a context that ends in the invariance stage (after
// the first stage's batches) or right after the last batch, during the
// final optimisation, stops training with its error and the classifier of
// the last complete step.
func TestCancelInStages(t *testing.T) {
	x, y := toyImages(120)
	for _, tc := range []struct {
		name  string
		o     Options
		after int // progress calls before the cancellation
	}{
		{"invariance stage", Options{Init: 20, Sub: 2, HypMaxEvals: 2, Seed: 5, Threads: 1, Augment: 4, ImageW: 4, ImageH: 4, AugmentPInc: 0.95}, 5},
		{"final optimisation", Options{Init: 20, Sub: 2, Passes: 1, HypMaxEvals: 2, Seed: 5, Threads: 1}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			calls := 0
			o := tc.o
			o.Progress = func(Progress) {
				if calls++; calls == tc.after {
					cancel()
				}
			}
			res, err := Train(ctx, x, y, &o)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if res == nil || res.Model == nil || res.HeldOut != nil {
				t.Fatalf("partial result %+v", res)
			}
			if calls != tc.after {
				t.Errorf("%d progress calls after the cancellation at call %d", calls-tc.after, tc.after)
			}
		})
	}
}
