package passgp

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
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
	o := Options{Init: 20, Sub: 2, Seed: 5, Threads: 1}
	first, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	both := o
	both.Augment = &Augmentation{Shifts: 4, ImageW: 4, ImageH: 4, PInc: 0.95}
	want, err := Train(context.Background(), x, y, &both)
	if err != nil {
		t.Fatal(err)
	}
	second := Options{Sub: 2, Seed: 5, Threads: 1, Augment: &Augmentation{Shifts: 4, ImageW: 4, ImageH: 4, PInc: 0.95}}
	got, err := TrainAugmented(context.Background(), first.Model, x, y, &second)
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
	if !slices.Equal(got.HeldOut, want.HeldOut) || got.Calibration.A != want.Calibration.A || !slices.Equal(got.Calibration.B, want.Calibration.B) {
		t.Errorf("held-out latents or calibration differ between TrainAugmented and Train")
	}
	if got.HeldOutError != want.HeldOutError || got.MajorityRate != want.MajorityRate {
		t.Errorf("held-out error %v / majority %v, Train %v / %v", got.HeldOutError, got.MajorityRate, want.HeldOutError, want.MajorityRate)
	}
	pg, pw := make([]float64, n), make([]float64, n)
	got.Model.PredictTo(pg, x)
	want.Model.PredictTo(pw, x)
	for i := range pg {
		if math.Abs(pg[i]-pw[i]) > 1e-12 {
			t.Fatalf("prediction %d: %v vs %v", i, pg[i], pw[i])
		}
	}

	if _, err := TrainAugmented(context.Background(), first.Model, x, y[1:], &second); err == nil {
		t.Error("labels of the wrong length accepted")
	}
	for _, bad := range []Options{
		{Sub: 2}, // no Augment
		{Augment: &Augmentation{Shifts: 4, ImageW: 3, ImageH: 3}}, // wrong geometry
		{Augment: &Augmentation{Shifts: 4, ImageW: 4, ImageH: 4}, Resume: &State{}},
	} {
		if _, err := TrainAugmented(context.Background(), first.Model, x, y, &bad); err == nil {
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
		{"invariance stage", Options{Init: 20, Sub: 2, Seed: 5, Threads: 1, Augment: &Augmentation{Shifts: 4, ImageW: 4, ImageH: 4, PInc: 0.95}}, 5},
		{"final optimisation", Options{Init: 20, Sub: 2, Passes: 1, Seed: 5, Threads: 1}, 2},
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

// TestAugmentedHeldOut: after the invariance stage, the held-out latent of
// each first-stage active image whose translations the stage trained on is the second-stage posterior's without
// the sites of the image and of all its translations (rebuilt here from
// the sites with those zeroed), not the plain cavity, which still sees the
// translations; every other training point keeps the stage's predictive
// latent.
func TestAugmentedHeldOut(t *testing.T) {
	const n, w = 150, 5
	x, y := noisyImages(n, w, 3)
	o := Options{Kernel: kernel.SE{Var: 4, Len2: 20, Jitter: 0.01}, Init: 20, Sub: 3, FixedTheta: true, Seed: 2, Threads: 1}
	first, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	o2 := Options{Sub: 3, Seed: 2, Threads: 1, Augment: &Augmentation{Shifts: 8, ImageW: w, ImageH: w, PInc: 0.95}}
	res, err := TrainAugmented(context.Background(), first.Model, x, y, &o2)
	if err != nil {
		t.Fatal(err)
	}
	b := res.Model
	imgs, _, _ := translationGroups(b, x, &shiftGeom{w, w, 8})
	for _, i := range imgs {
		if !slices.Contains(first.Model.Active, i) {
			t.Fatalf("image %d has translations in the second stage but was not in the first stage's active set", i)
		}
	}
	if len(imgs) < 20 || res.HeldOutLost != 0 {
		t.Fatalf("%d images with translations in the active set, %d latents lost", len(imgs), res.HeldOutLost)
	}
	// Which rows of the second stage's active set are an image or one of
	// its translations.
	shifted := mat.NewDense(8, w*w, nil)
	var checked, differs int
	for _, i := range imgs[:12] {
		for s := 0; s < 8; s++ {
			dx, dy := data.ImageShift(s)
			data.ShiftImageTo(shifted.RawRowView(s), x.RawRowView(i), w, w, dx, dy)
		}
		sites := b.Post.Sites.Clone()
		var group []int
		for k := range b.Active {
			row := b.X.RawRowView(k)
			match := b.Active[k] == i
			for s := 0; s < 8 && !match && b.Active[k] < 0; s++ {
				match = slices.Equal(row, shifted.RawRowView(s))
			}
			if match {
				group = append(group, k)
				sites.Tau[k], sites.Nu[k] = 0, 0
			}
		}
		p, err := ep.FromSites(b.Kernel, b.X, b.Y, sites)
		if err != nil {
			t.Fatal(err)
		}
		m, v := make([]float64, 1), make([]float64, 1)
		if k := slices.Index(b.Active, i); k >= 0 {
			m[0], v[0] = p.Mean[k], p.Var[k]
		} else {
			p.PredictTo(m, v, nil, mat.NewDense(1, w*w, x.RawRowView(i)))
		}
		want := m[0] / math.Sqrt(1+v[0])
		if got := res.HeldOut[i]; math.Abs(got-want) > 1e-8*(1+math.Abs(want)) {
			t.Errorf("image %d (group of %d): held-out latent %v, refit without the group %v", i, len(group), got, want)
		}
		checked++
		// The plain held-out latent, which sees the translations.
		plain := make([]float64, 1)
		if k := slices.Index(b.Active, i); k >= 0 {
			cm, cv := make([]float64, len(b.Y)), make([]float64, len(b.Y))
			b.Post.CavityTo(cm, cv)
			plain[0] = cm[k] / math.Sqrt(1+cv[k])
		} else {
			mm, vv := make([]float64, 1), make([]float64, 1)
			b.Post.PredictTo(mm, vv, nil, mat.NewDense(1, w*w, x.RawRowView(i)))
			plain[0] = mm[0] / math.Sqrt(1+vv[0])
		}
		if len(group) > 1 && math.Abs(plain[0]-want) > 1e-3 {
			differs++
		}
	}
	t.Logf("|A| %d after the invariance stage, %d first-stage images; %d checked, %d changed by the translations", len(b.Y), len(imgs), checked, differs)
	if checked < 10 || differs < checked/2 {
		t.Errorf("%d first-stage images checked, %d where the translations change the held-out latent", checked, differs)
	}
	// Points outside the first stage's active set: the predictive latent.
	all := make([]float64, n)
	mm, vv := make([]float64, n), make([]float64, n)
	b.Post.PredictTo(mm, vv, nil, x)
	for i := range all {
		if slices.Contains(imgs, i) {
			continue
		}
		if want := mm[i] / math.Sqrt(1+vv[i]); math.Abs(res.HeldOut[i]-want) > 1e-9*(1+math.Abs(want)) {
			t.Fatalf("point %d outside the groups: %v, predictive %v", i, res.HeldOut[i], want)
		}
	}
}

// TestAugmentedHeldOutFinished: a multi-class run with invariances whose
// classes come back from a checkpoint (Options.Multi.Finished) recomputes their
// held-out latents with the same leave-group-out latents, so that the
// calibration equals that of the uninterrupted run.
func TestAugmentedHeldOutFinished(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, w = 120, 4
	x := mat.NewDense(n, w*w, nil)
	labels := make([]float64, n)
	for i := 0; i < n; i++ {
		for p := 0; p < w*w; p++ {
			x.Set(i, p, rng.NormFloat64())
		}
		r := x.RawRowView(i)
		s := []float64{r[0] + r[1], r[5] + r[6], r[10] + r[11]}
		labels[i] = float64(slices.Index(s, slices.Max(s)))
	}
	o := Options{Kernel: kernel.SE{Var: 4, Len2: 12, Jitter: 0.01}, Init: 15, Sub: 2, FixedTheta: true, Seed: 3, Threads: 1,
		Augment: &Augmentation{Shifts: 4, ImageW: w, ImageH: w, PInc: 0.95}}
	want, err := TrainMulti(context.Background(), x, labels, &o)
	if err != nil {
		t.Fatal(err)
	}
	o.Multi.Finished = map[float64]*Result{0: {Model: want.Model.Models[0]}, 1: {Model: want.Model.Models[1]}}
	got, err := TrainMulti(context.Background(), x, labels, &o)
	if err != nil {
		t.Fatal(err)
	}
	for j := range 2 {
		if !slices.Equal(got.PerClass[j].HeldOut, want.PerClass[j].HeldOut) {
			t.Errorf("class %d: held-out latents differ after resuming", j)
		}
	}
	if got.Calibration.A != want.Calibration.A || !slices.Equal(got.Calibration.B, want.Calibration.B) {
		t.Errorf("calibration %+v after resuming, %+v uninterrupted", got.Calibration, want.Calibration)
	}
	// The plain latents differ: the check above could fail.
	plain, _, _, err := heldOutLatents(context.Background(), newRunner(1), want.Model.Models[0], DenseRows(x), nil)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(plain, want.PerClass[0].HeldOut) {
		t.Error("class 0: leave-group-out latents equal the plain ones; the stage trained on no translation")
	}
}

// noisyImages returns n seeded w×w images of Gaussian pixels, labelled by
// the sign of their two left columns' sum plus noise.
func noisyImages(n, w int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 4))
	x := mat.NewDense(n, w*w, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		var s float64
		for p := 0; p < w*w; p++ {
			v := rng.NormFloat64()
			x.Set(i, p, v)
			if p%w < 2 {
				s += v
			}
		}
		y[i] = 1
		if s+0.8*rng.NormFloat64() < 0 {
			y[i] = -1
		}
	}
	return x, y
}

// TestAugmentNoBudget: Options.MaxActive bounds the first stage only; the
// invariance stage keeps the paper's rule (trainer.rule), so its active
// set may grow beyond the budget.
func TestAugmentNoBudget(t *testing.T) {
	x, y := noisyImages(150, 5, 7)
	o := Options{Kernel: kernel.SE{Var: 4, Len2: 20, Jitter: 0.01}, Init: 10, Sub: 3, FixedTheta: true, Seed: 2, Threads: 1,
		MaxActive: 25}
	first, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	o.Augment = &Augmentation{Shifts: 4, ImageW: 5, ImageH: 5, PInc: 0.95}
	both, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if a1, a2 := len(first.Model.Active), len(both.Model.Active); a1 > 25 || a2 <= 25 {
		t.Errorf("|A| %d after the first stage (budget 25), %d after the invariance stage (want more than 25)", a1, a2)
	}
}

// TestAugmentBatching checks that Augmentation.Sub and Passes set the
// invariance stage's batches apart from the first stage's, in Train and
// TrainAugmented alike, and that zero keeps the first stage's.
func TestAugmentBatching(t *testing.T) {
	x, y := toyImages(120)
	o := Options{Init: 20, Sub: 4, Seed: 5, Threads: 1,
		Augment: &Augmentation{Shifts: 4, ImageW: 4, ImageH: 4, PInc: 0.95}}
	first := o
	first.Augment = nil
	stage1, err := Train(context.Background(), x, y, &first)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sub, passes, want int }{
		{0, 0, 4 * 2}, // the first stage's Sub 4 × the default 2 passes
		{3, 0, 3 * 2},
		{0, 1, 4 * 1},
		{3, 1, 3 * 1},
	} {
		a := o
		aug := *o.Augment
		aug.Sub, aug.Passes = c.sub, c.passes
		a.Augment = &aug
		both, err := Train(context.Background(), x, y, &a)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(both.Batches) - len(stage1.Batches); got != c.want {
			t.Errorf("Augment.Sub %d, Augment.Passes %d: Train's second stage has %d batches, want %d", c.sub, c.passes, got, c.want)
		}
		second, err := TrainAugmented(context.Background(), stage1.Model, x, y, &a)
		if err != nil {
			t.Fatal(err)
		}
		if len(second.Batches) != c.want {
			t.Errorf("Augment.Sub %d, Augment.Passes %d: TrainAugmented ran %d batches, want %d", c.sub, c.passes, len(second.Batches), c.want)
		}
		if !slices.Equal(second.Model.Active, both.Model.Active) {
			t.Errorf("Augment.Sub %d, Augment.Passes %d: Train and TrainAugmented end with different active sets", c.sub, c.passes)
		}
		wantPasses := c.passes
		if wantPasses == 0 {
			wantPasses = 2
		}
		if last := second.Batches[len(second.Batches)-1]; last.Pass+1 != wantPasses {
			t.Errorf("Augment.Sub %d, Augment.Passes %d: last batch in pass %d, want %d", c.sub, c.passes, last.Pass+1, wantPasses)
		}
	}
	bad := o
	badAug := *o.Augment
	badAug.Sub = -1
	bad.Augment = &badAug
	if _, err := Train(context.Background(), x, y, &bad); err == nil {
		t.Error("Augment.Sub −1 accepted")
	}
}

// Training with invariances on tiny 4×4 "images": the retraining stage
// runs at fixed θ from the first active set and maps the indices back.
func TestAugmentTrain(t *testing.T) {
	n := 120
	x, y := toyImages(n)
	res, err := Train(context.Background(), x, y, &Options{Init: 20, Sub: 2, Augment: &Augmentation{Shifts: 4, ImageW: 4, ImageH: 4}})
	if err != nil {
		t.Fatal(err)
	}
	stage2 := 0
	for _, b := range res.Batches {
		if b.Augmented {
			stage2++
			if b.HypEvals != 0 {
				t.Error("θ optimised in the invariance stage")
			}
		}
	}
	if stage2 != 4 {
		t.Errorf("%d augmented batches, want 4", stage2)
	}
	for _, a := range res.Model.Active {
		if a < -1 || a >= n {
			t.Errorf("active index %d", a)
		}
	}
}
