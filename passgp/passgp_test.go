package passgp

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

func TestParseMethod(t *testing.T) {
	for m := PASSGP; m <= Full; m++ {
		got, err := ParseMethod(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMethod(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseMethod("svm"); err == nil {
		t.Error("ParseMethod(svm): no error")
	}
	if m, err := ParseMethod("fPASS-GP"); err != nil || m != FPASSGP {
		t.Errorf("ParseMethod(fPASS-GP) = %v, %v", m, err)
	}
}

func TestOptionErrors(t *testing.T) {
	x, y := toy(20, 1)
	for _, o := range []Options{
		{PInc: 1.5},
		{Augment: &Augmentation{Shifts: 3, ImageW: 2, ImageH: 1}},
		{Augment: &Augmentation{Shifts: 4, ImageW: 3, ImageH: 3}},
		{Augment: &Augmentation{Shifts: 4, ImageW: 2, ImageH: 1, PInc: 1.5}},
		{Augment: &Augmentation{Shifts: 4, ImageW: 2, ImageH: 1, Sub: -1}},
		{Fixed: []bool{true}},
		{Method: Method(9)},
	} {
		if _, err := Train(context.Background(), x, y, &o); err == nil {
			t.Errorf("Train with %+v: no error", o)
		}
	}
	bad := slices.Clone(y)
	bad[3] = 0
	if _, err := Train(context.Background(), x, bad, nil); err == nil {
		t.Error("label 0 accepted")
	}
	x.Set(2, 1, math.NaN())
	if _, err := Train(context.Background(), x, y, nil); err == nil {
		t.Error("NaN input accepted")
	}
}

// PASS-GP with p_inc = p_del = 1 includes every point and deletes none, so
// after one pass A is the whole training set and the classifier must equal
// the full GPC.
func TestPassAllEqualsFull(t *testing.T) {
	x, y := toy(60, 2)
	k := toyKernel()
	ctx := context.Background()
	tight := ep.Options{Tol: 1e-11, MaxSweeps: 1000}
	pass, err := Train(ctx, x, y, &Options{Kernel: k, FixedTheta: true, Init: 10, Sub: 3, Passes: 2, PInc: 1, PDel: 1, Seed: 3, EP: tight})
	if err != nil {
		t.Fatal(err)
	}
	full, err := Train(ctx, x, y, &Options{Method: Full, Kernel: k, FixedTheta: true, EP: tight})
	if err != nil {
		t.Fatal(err)
	}
	if len(pass.Model.Active) != 60 {
		t.Fatalf("|A| = %d, want 60", len(pass.Model.Active))
	}
	if d := math.Abs(pass.Model.Post.LogZ - full.Model.Post.LogZ); d > 1e-8 {
		t.Errorf("log Z: PASS-GP %v, full %v", pass.Model.Post.LogZ, full.Model.Post.LogZ)
	}
	g := grid()
	n, _ := g.Dims()
	p1, p2 := make([]float64, n), make([]float64, n)
	pass.Model.PredictTo(p1, g)
	full.Model.PredictTo(p2, g)
	if d := maxDiff(p1, p2); d > 1e-6 {
		t.Errorf("predictions differ by %v", d)
	}
	for i, b := range pass.Batches {
		if b.Deleted != 0 {
			t.Errorf("batch %d deleted %d points", i, b.Deleted)
		}
	}
}

func TestFPASSKeepsM(t *testing.T) {
	x, y := toy(300, 4)
	const m = 40
	var sizes []int
	res, err := Train(context.Background(), x, y, &Options{Method: FPASSGP, Kernel: toyKernel(), M: m, Sub: 5, Passes: 3, PExc: 0.1, Seed: 5,
		Checkpoint: func(s *State) { sizes = append(sizes, len(s.Active)) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 15 {
		t.Fatalf("%d checkpoints, want 15", len(sizes))
	}
	for i, b := range res.Batches {
		if b.Active != m || sizes[i] != m || b.Included != 4 || b.Deleted != 4 {
			t.Errorf("batch %d: |A| = %d (state %d), included %d, deleted %d; want %d, 4, 4", i, b.Active, sizes[i], b.Included, b.Deleted, m)
		}
	}
	if len(res.Model.Active) != m {
		t.Errorf("final |A| = %d", len(res.Model.Active))
	}
}

// PASS-GP with hyperparameter optimisation learns a sensible classifier.
func TestPASSGPLearns(t *testing.T) {
	x, y := toy(400, 6)
	res, err := Train(context.Background(), x, y, &Options{Init: 30, Sub: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	xt, yt := toy(400, 7)
	p := make([]float64, 400)
	res.Model.PredictTo(p, xt)
	e := calib.ProbErrorRate(p, yt)
	t.Logf("error %.3f, |A| = %d, θ = %v, batches %d", e, len(res.Model.Active), res.Model.Kernel.Params(), len(res.Batches))
	if e > 0.15 {
		t.Errorf("test error %.3f > 0.15", e)
	}
	if len(res.Batches) != 8 {
		t.Errorf("%d batches, want 8", len(res.Batches))
	}
	for _, b := range res.Batches {
		if b.HypEvals == 0 || b.Theta == nil {
			t.Errorf("batch %+v: no hyperparameter step", b)
		}
	}
}

// Resuming from a checkpoint (through gob) gives the uninterrupted run,
// with the paper's rule and with a budget that froze θ before the
// checkpoint.
func TestResumeEqualsUninterrupted(t *testing.T) {
	for _, budget := range []int{0, 40} {
		testResume(t, budget, 2)
	}
	// A checkpoint in the last pass.
	testResume(t, 40, 4)
}

// testResume resumes from the checkpoint after the at-th batch.
func testResume(t *testing.T, budget int, at int) {
	x, y := toy(300, 12)
	var saved []byte
	o := Options{Init: 25, Sub: 3, Passes: 2, Seed: 13, MaxActive: budget}
	o.Checkpoint = func(s *State) {
		if s.Done == at {
			if s.Frozen != (budget > 0) {
				t.Fatalf("budget %d: Frozen = %v at the checkpoint", budget, s.Frozen)
			}
			saved = encodeState(t, s)
		}
	}
	full, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	st := decodeState(t, saved)
	o.Checkpoint, o.Resume = nil, st
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(full.Model.Active, res.Model.Active) ||
		!slices.Equal(full.Model.Kernel.Params(), res.Model.Kernel.Params()) ||
		!slices.Equal(full.Model.Post.Sites.Tau, res.Model.Post.Sites.Tau) ||
		!slices.Equal(full.AtBound, res.AtBound) {
		t.Error("resumed run differs from the uninterrupted one")
	}
	if !slices.Equal(full.HeldOut, res.HeldOut) || full.Calibration.A != res.Calibration.A {
		t.Errorf("budget %d, checkpoint after batch %d: resumed run's held-out latents or calibration differ", budget, at)
	}
	if len(res.Batches) != len(full.Batches) {
		t.Errorf("resumed run has %d batch records, want %d", len(res.Batches), len(full.Batches))
	}
	bad := *st
	bad.N = 5
	o.Resume = &bad
	if _, err := Train(context.Background(), x, y, &o); err == nil {
		t.Error("resume with wrong N accepted")
	}
}

func TestCancelStopsAtBatch(t *testing.T) {
	x, y := toy(200, 14)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := Train(ctx, x, y, &Options{Init: 20, Sub: 4, Seed: 1,
		Progress: func(p Progress) {
			if p.Batch == 1 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if res == nil || res.Model == nil || len(res.Batches) != 2 {
		t.Fatalf("partial result %+v", res)
	}
}

func TestRandomAndFullMemory(t *testing.T) {
	x, y := toy(100, 15)
	res, err := Train(context.Background(), x, y, &Options{Method: Random, M: 30, Kernel: toyKernel(), FixedTheta: true, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Model.Active) != 30 {
		t.Errorf("|A| = %d", len(res.Model.Active))
	}
	// DefaultMaxFullBytes = 2³⁰ bytes holds an n×n matrix up to n = 11585.
	if err := checkFullMemory(11585, DefaultMaxFullBytes, "full GPC"); err != nil {
		t.Errorf("full GPC on 11585 points: %v", err)
	}
	if err := checkFullMemory(11586, DefaultMaxFullBytes, "full GPC"); err == nil {
		t.Error("full GPC over the memory limit: no error")
	}
}

func TestMulti(t *testing.T) {
	x, y := blobs(300, 3, 1)
	xt, yt := blobs(300, 3, 2)
	var calls int
	res, err := TrainMulti(context.Background(), x, y, &Options{Init: 20, Sub: 3, Threads: 2,
		Progress: func(Progress) { calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Model.Classes, []float64{0, 1, 2}) || calls != 3*6 {
		t.Fatalf("classes %v, progress calls %d", res.Model.Classes, calls)
	}
	pred := make([]float64, 300)
	res.Model.PredictTo(pred, xt)
	prob := mat.NewDense(300, 3, nil)
	res.Model.PredictProbTo(prob, xt)
	e := calib.ErrorRate(pred, yt)
	t.Logf("error %.3f brier %.3f nlp %.3f", e, calib.BrierMulti(prob, res.Model.Classes, yt), calib.MeanNLPMulti(prob, res.Model.Classes, yt))
	if e > 0.15 {
		t.Errorf("multi-class error %.3f", e)
	}
	one, err := TrainMulti(context.Background(), x, y, &Options{Init: 20, Sub: 3, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for j := range one.Model.Models {
		if !slices.Equal(one.Model.Models[j].Active, res.Model.Models[j].Active) {
			t.Errorf("class %d: active set depends on Threads", j)
		}
	}
}

// TestAtBound checks that a θ component held by its bound is reported in
// Result.AtBound and in the batch record of the optimisation, for every
// method, and that AtBound is nil when θ is fixed. The signal variance is
// capped far below what the evidence of this data wants.
func TestAtBound(t *testing.T) {
	x, y := toy(200, 21)
	for _, m := range []Method{PASSGP, FPASSGP, IVM, Random, Full} {
		o := &Options{Method: m, Init: 30, Sub: 3, Passes: 2, Seed: 2,
			Kernel: kernel.SE{Var: 0.2, Len2: 0.5, Jitter: 1e-4}, Upper: []float64{0.3, 1e6, 1e6}}
		res, err := Train(context.Background(), x, y, o)
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if want := []bool{true, false, false}; !slices.Equal(res.AtBound, want) {
			t.Errorf("%v: AtBound %v, want %v (θ %v)", m, res.AtBound, want, res.Model.Kernel.Params())
		}
		if got := res.Model.Kernel.Params()[0]; got != 0.3 {
			t.Errorf("%v: t1 = %v, want the bound 0.3", m, got)
		}
		recorded := false
		for _, b := range res.Batches {
			recorded = recorded || (b.AtBound != nil && b.AtBound[0])
		}
		if !recorded {
			t.Errorf("%v: no batch record has t1 at its bound", m)
		}
		o.FixedTheta = true
		if res, err = Train(context.Background(), x, y, o); err != nil {
			t.Fatalf("%v fixed θ: %v", m, err)
		}
		if res.AtBound != nil {
			t.Errorf("%v fixed θ: AtBound %v, want nil", m, res.AtBound)
		}
	}
}

// TestBadOptionsAndLabels: bad options and labels are errors, not panics.
func TestBadOptionsAndLabels(t *testing.T) {
	x, y := toy(60, 21)
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"EP damping", Options{EP: ep.Options{Damping: 2}}},
		{"EP schedule", Options{EP: ep.Options{Schedule: ep.Schedule(9)}}},
		{"EP tol", Options{EP: ep.Options{Tol: -1}}},
		{"EP max sweeps", Options{EP: ep.Options{MaxSweeps: -3}}},
		{"fPASS-GP exchanges none", Options{Method: FPASSGP, M: 10, PExc: 0.01}},
		{"negative passes", Options{Passes: -1}},
		{"negative M", Options{Method: Random, M: -5}},
		{"negative hyp every", Options{HypEvery: -1}},
		{"p_del > 1", Options{PDel: 1.5}},
		{"p_inc NaN", Options{PInc: math.NaN()}},
		{"p_exc < 0", Options{Method: FPASSGP, PExc: -0.1}},
	} {
		if _, err := Train(context.Background(), x, y, &tc.o); err == nil {
			t.Errorf("%s: Train accepted %+v", tc.name, tc.o)
		}
	}
	one := make([]float64, len(y))
	for i := range one {
		one[i] = 1
	}
	if _, err := Train(context.Background(), x, one, nil); err == nil || !strings.Contains(err.Error(), "both classes") {
		t.Errorf("single-class labels: err = %v", err)
	}
	if _, err := TrainMulti(context.Background(), x, one, nil); err == nil || !strings.Contains(err.Error(), "at least two classes") {
		t.Errorf("TrainMulti with one class: err = %v", err)
	}
	nan := slices.Clone(y)
	nan[3] = math.NaN()
	if _, err := TrainMulti(context.Background(), x, nan, nil); err == nil || !strings.Contains(err.Error(), "label 3") {
		t.Errorf("NaN label: err = %v", err)
	}
	xi := mat.DenseCopyOf(x)
	xi.Set(7, 1, math.Inf(1))
	if _, err := Train(context.Background(), xi, y, nil); err == nil || err.Error() != "passgp: input row 7 feature 1 is +Inf" {
		t.Errorf("infinite input: err = %v", err)
	}
}

// TestCancelEveryMethod: every method stops when its context ends during
// training, and PASS-GP, fPASS-GP and IVM return the classifier of their
// last complete step with the context's error.
func TestCancelEveryMethod(t *testing.T) {
	x, y := toy(300, 22)
	for _, m := range []Method{PASSGP, FPASSGP, IVM, Random, Full} {
		t.Run(m.String(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// Cancel from inside the first EP-heavy step: the first
			// progress call for the loop methods, the kernel's first
			// Gram evaluation for the one-shot ones.
			o := &Options{Method: m, M: 50, Init: 20, Sub: 4, Seed: 3, Kernel: cancelKernel{Kernel: toyKernel(), cancel: cancel, after: 3, calls: new(atomic.Int64)},
				Progress: func(Progress) { cancel() }}
			res, err := Train(ctx, x, y, o)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if res != nil && res.Model == nil {
				t.Errorf("partial result without a classifier")
			}
		})
	}
}

// TestRegressionLabelsRefused: more distinct labels than MaxClasses are
// an error that says why, before any classifier is trained.
func TestRegressionLabelsRefused(t *testing.T) {
	x, y := toy(150, 23)
	reg := make([]float64, len(y))
	for i := range reg {
		reg[i] = float64(i) * 0.1
	}
	_, err := TrainMulti(context.Background(), x, reg, nil)
	if err == nil || !strings.Contains(err.Error(), "150 distinct labels") || !strings.Contains(err.Error(), "regression") {
		t.Fatalf("err = %v", err)
	}
	three := make([]float64, len(y))
	for i := range three {
		three[i] = float64(i % 3)
	}
	if _, err := TrainMulti(context.Background(), x, three, &Options{Method: Random, M: 20, MaxClasses: 2, Kernel: toyKernel(), FixedTheta: true}); err == nil {
		t.Error("3 classes accepted with MaxClasses 2")
	}
	if err := CheckClasses([]float64{1, 2, 3}, 3); err != nil {
		t.Error(err)
	}
}

// TestResumeCraftedState: a snapshot that contradicts itself is an error
// from Train, never a panic.
func TestResumeCraftedState(t *testing.T) {
	x, y := toy(40, 24)
	perm := make([]int32, 40)
	for i := range perm {
		perm[i] = int32(i)
	}
	perm[7] = 99
	s := &State{Method: PASSGP, N: 40, D: 2, Theta: toyKernel().Params(), Active: []int{1}, Tau: []float64{0}, Nu: []float64{0},
		Perm: perm, Bounds: []int{0, 20, 40}}
	if _, err := Train(context.Background(), x, y, &Options{Kernel: toyKernel(), Resume: s}); err == nil || !strings.Contains(err.Error(), "permutation") {
		t.Errorf("bad permutation: %v", err)
	}
	perm[7] = 7
	s.Batch = 5
	if _, err := Train(context.Background(), x, y, &Options{Kernel: toyKernel(), Resume: s}); err == nil || !strings.Contains(err.Error(), "batch 5") {
		t.Errorf("batch out of range: %v", err)
	}
}

// TestTrainMultiResume: TrainMulti resumed from finished classifiers and
// one class's snapshot gives the classifiers of an uninterrupted run, and
// reports each class it trains through Multi.ClassDone, in order.
func TestTrainMultiResume(t *testing.T) {
	x, y := toy(240, 25)
	labels := make([]float64, len(y))
	for i := range labels {
		labels[i] = float64(i % 3)
	}
	base := Options{Init: 20, Sub: 3, Passes: 1, Seed: 4, Multi: MultiControl{ClassWorkers: 1}}
	var snap *State
	var order []float64
	o := base
	o.Checkpoint = func(s *State) {
		if s.Class == 1 && s.Batch == 1 {
			c := cloneState(s)
			snap = &c
		}
	}
	o.Multi.ClassDone = func(c float64, r *Result) { order = append(order, c) }
	full, err := TrainMulti(context.Background(), x, labels, &o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(order, []float64{0, 1, 2}) || snap == nil {
		t.Fatalf("ClassDone order %v, snapshot %v", order, snap != nil)
	}
	order = nil
	o = base
	o.Multi.Finished = map[float64]*Result{0: full.PerClass[0]}
	o.Resume = snap
	o.Multi.ClassDone = func(c float64, r *Result) { order = append(order, c) }
	res, err := TrainMulti(context.Background(), x, labels, &o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(order, []float64{1, 2}) || res.Model.Models[0] != full.Model.Models[0] {
		t.Errorf("resumed run: ClassDone %v, finished classifier reused %v", order, res.Model.Models[0] == full.Model.Models[0])
	}
	for j := 1; j < 3; j++ {
		a, b := full.Model.Models[j], res.Model.Models[j]
		if !slices.Equal(a.Active, b.Active) || !slices.Equal(a.Post.Sites.Tau, b.Post.Sites.Tau) {
			t.Errorf("class %d differs after resuming", j)
		}
	}
	// The finished class's held-out latents are the uninterrupted run's,
	// so the calibration is too, to the last bit.
	if c, w := res.Calibration, full.Calibration; c.A != w.A || !slices.Equal(c.B, w.B) || c.Eps != w.Eps {
		t.Errorf("calibration %+v after resuming, %+v uninterrupted", c, w)
	}
	// Held-out latents that do not fit the data are refused.
	o.Resume = nil
	o.Multi.Finished = map[float64]*Result{0: {Model: full.Model.Models[0], HeldOut: full.PerClass[0].HeldOut[1:], HeldOutShare: full.PerClass[0].HeldOutShare}}
	if _, err := TrainMulti(context.Background(), x, labels, &o); err == nil {
		t.Error("held-out latents of another length were accepted")
	}
	o.Multi.Finished = map[float64]*Result{0: {}}
	if _, err := TrainMulti(context.Background(), x, labels, &o); err == nil {
		t.Error("a finished class without a model was accepted")
	}
	o.Multi.Finished = map[float64]*Result{0: full.PerClass[0]}
	o.Resume = &State{Class: 7}
	if _, err := TrainMulti(context.Background(), x, labels, &o); err == nil {
		t.Error("a snapshot of a class the labels lack was accepted")
	}
}

// encodeState gob-encodes a checkpoint as a caller stores it;
// decodeState reads it back (the State a resumed run starts from).
func encodeState(t *testing.T, s *State) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decodeState(t *testing.T, b []byte) *State {
	t.Helper()
	var st State
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return &st
}

// TestStateOldFields: a checkpoint's State written when it had the
// fields of removed options (Stalled, StalledPass, BatchStats.Restarted,
// FITCChoice's second θ) still decodes, to the State without them.
func TestStateOldFields(t *testing.T) {
	type oldBatch struct {
		Pass, Batch, Active int
		Restarted           bool
	}
	type oldChoice struct {
		Inducing, Points    int
		ActiveNLL, FITCNLL  float64
		SecondTheta         []float64
		SecondNLL           float64
		Second              bool
		SearchTheta         []float64
		SearchNLL, SearchSE float64
	}
	type oldState struct {
		Method               Method
		N, D                 int
		Theta                []float64
		Active               []int
		Frozen               bool
		Stalled, StalledPass int
		Tau, Nu              []float64
		Stats                []oldBatch
		Bound                *oldChoice
	}
	old := oldState{Method: PASSGP, N: 10, D: 2, Theta: []float64{1, 2}, Active: []int{3, 5}, Frozen: true, Stalled: 2, StalledPass: 1,
		Tau: []float64{0.5, 0.25}, Nu: []float64{0.1, -0.2}, Stats: []oldBatch{{Pass: 1, Batch: 2, Active: 2, Restarted: true}},
		Bound: &oldChoice{Inducing: 2, Points: 10, ActiveNLL: 0.3, FITCNLL: 0.4, SecondTheta: []float64{3, 4}, SecondNLL: 0.35, Second: true,
			SearchTheta: []float64{5, 6}, SearchNLL: 0.2, SearchSE: 0.01}}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&old); err != nil {
		t.Fatal(err)
	}
	got := decodeState(t, buf.Bytes())
	want := State{Method: PASSGP, N: 10, D: 2, Theta: []float64{1, 2}, Active: []int{3, 5}, Frozen: true,
		Tau: []float64{0.5, 0.25}, Nu: []float64{0.1, -0.2}, Stats: []BatchStats{{Pass: 1, Batch: 2, Active: 2}}}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("old state decodes to %+v, want %+v", *got, want)
	}
}
