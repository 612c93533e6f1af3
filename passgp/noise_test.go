package passgp

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/synth"
)

// noisy returns n points of a binary synth task with 15% of the labels
// flipped (Bayes error 0.205), and which labels were flipped.
func noisy(t *testing.T, n int, seed uint64) (*mat.Dense, []float64, []bool) {
	t.Helper()
	task := synth.Task{D: 4, Relevant: 4, Sep: 2, Flip: 0.15}
	g, err := synth.NewGenerator(task, seed)
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(n, 4, nil)
	y := make([]float64, n)
	flipped := make([]bool, n)
	for i := range n {
		c, o := g.Next(x.RawRowView(i))
		y[i] = task.Label(o)
		flipped[i] = c != o
	}
	return x, y, flipped
}

// TestMaxActiveBinds: on noisy data the paper's inclusion rule would grow
// A past the budget; with MaxActive it reaches the budget and stays
// there.
func TestMaxActiveBinds(t *testing.T) {
	x, y, _ := noisy(t, 1500, 1)
	res, err := Train(context.Background(), x, y, &Options{Init: 100, MaxActive: 120, Sub: 5, Seed: 3,
		FixedTheta: true, Kernel: kernel.SE{Var: 4, Len2: 8, Jitter: 1e-4}})
	if err != nil {
		t.Fatal(err)
	}
	hit := false
	for i, b := range res.Batches {
		if b.Active > 120 {
			t.Errorf("batch %d: |A| = %d > 120", i, b.Active)
		}
		hit = hit || b.Active == 120
	}
	if !hit || len(res.Model.Active) > 120 {
		t.Errorf("the budget never bound (final |A| %d)", len(res.Model.Active))
	}
}

// TestBudgetCandidates: a batch of more than budgetBatchFactor·MaxActive
// candidates offers a window of that many, another one in every pass;
// the paper's rule (no budget) scores them all.
func TestBudgetCandidates(t *testing.T) {
	x, y, _ := noisy(t, 1500, 1)
	o := Options{Init: 20, MaxActive: 30, Sub: 2, Passes: 2, Seed: 3, FixedTheta: true, Kernel: kernel.SE{Var: 4, Len2: 8, Jitter: 1e-4}}
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range res.Batches {
		// A batch holds 750 points, of which at most 30 are active.
		if b.Unscored < 750-30-budgetBatchFactor*30 || b.Unscored > 750-budgetBatchFactor*30 {
			t.Errorf("batch %d: %d unscored", i, b.Unscored)
		}
	}
	c, _ := checkInput(context.Background(), DenseRows(x), y, &o)
	tr := newTrainer(DenseRows(x), y, &c, nil, "")
	cand := make([]int, 1000)
	for i := range cand {
		cand[i] = i
	}
	w0, n0 := tr.budgetCandidates(cand)
	tr.st.Pass = 1
	w1, _ := tr.budgetCandidates(cand)
	if n0 != 1000-150 || len(w0) != 150 || w0[0] == w1[0] {
		t.Errorf("windows: %d left out, first points %d and %d", n0, w0[0], w1[0])
	}
	o.MaxActive = 0
	if res, err = Train(context.Background(), x, y, &o); err != nil {
		t.Fatal(err)
	}
	for i, b := range res.Batches {
		if b.Unscored != 0 {
			t.Errorf("no budget, batch %d: %d unscored", i, b.Unscored)
		}
	}
}

// TestHeldOutError: a classifier that learned the task has a held-out
// error below the majority rate; one whose points are independent under
// the prior (squared length scale 1e-8, held fixed) has held-out latents
// that are zero up to rounding, whose signs carry nothing, and it is not
// below the majority rate. Its task keeps every third positive only, so
// that the majority rate (about 1/4) is well below the error of random
// signs (1/2) and equal to that of the tie's decision (z = 0 counts as
// negative, the larger class).
func TestHeldOutError(t *testing.T) {
	x, y, _ := noisy(t, 600, 1)
	var keep []int
	for i, v := range y {
		if v < 0 || i%3 == 0 {
			keep = append(keep, i)
		}
	}
	xi, yi := gatherRows(x, keep), gather(y, keep)
	for _, c := range []struct {
		len2   float64
		x      *mat.Dense
		y      []float64
		lo, hi float64 // majority rate
		fail   bool
	}{{8, x, y, 0.4, 0.5, false}, {1e-8, xi, yi, 0.15, 0.35, true}} {
		res, err := Train(context.Background(), c.x, c.y, &Options{Init: 50, Sub: 2, Passes: 1, Seed: 1, FixedTheta: true,
			Kernel: kernel.SE{Var: 4, Len2: c.len2, Jitter: 1e-4}})
		if err != nil {
			t.Fatal(err)
		}
		if !(res.MajorityRate > c.lo && res.MajorityRate <= c.hi) || (res.HeldOutError >= res.MajorityRate) != c.fail {
			t.Errorf("squared length scale %g: held-out error %.3f, majority rate %.3f", c.len2, res.HeldOutError, res.MajorityRate)
		}
	}
}

// TestBudgetFreezesTheta: θ is optimised until the budget first binds
// and kept from then on at keptTheta of the batches up to that one (not
// that batch's own iterate), the final classifier's included.
func TestBudgetFreezesTheta(t *testing.T) {
	x, y, _ := noisy(t, 1500, 1)
	frozenAt := -1
	o := Options{Init: 50, MaxActive: 150, Sub: 30, Passes: 1, Seed: 3,
		Checkpoint: func(s *State) {
			if s.Frozen && frozenAt < 0 {
				frozenAt = len(s.Stats) - 1
			}
		}}
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if frozenAt < 1 {
		t.Fatalf("the budget bound at batch %d; want a later batch (|A| per batch: %v)", frozenAt, actives(res.Batches))
	}
	if res.Batches[0].HypEvals == 0 {
		t.Error("θ was not optimised before the budget bound")
	}
	theta := keptTheta(res.Batches[:frozenAt+1])
	if slices.Equal(theta, res.Batches[frozenAt].Theta) {
		t.Fatalf("the mean %v equals the binding batch's θ; the test cannot tell them apart", theta)
	}
	for i, b := range res.Batches[frozenAt+1:] {
		if b.HypEvals != 0 || !slices.Equal(b.Theta, theta) {
			t.Errorf("batch %d after the budget bound: %d evaluations, θ %v (frozen at %v)", frozenAt+1+i, b.HypEvals, b.Theta, theta)
		}
	}
	if got := res.Model.Kernel.Params(); !slices.Equal(got, theta) {
		t.Errorf("final θ %v, frozen at %v", got, theta)
	}
	// Seeded runs are identical for 1 and 2 threads.
	o.Checkpoint = nil
	var runs [2]*Result
	for i := range runs {
		o.Threads = i + 1
		if runs[i], err = Train(context.Background(), x, y, &o); err != nil {
			t.Fatal(err)
		}
	}
	a, b := runs[0].Model, runs[1].Model
	if !slices.Equal(a.Active, b.Active) || !slices.Equal(a.Kernel.Params(), b.Kernel.Params()) || !slices.Equal(a.Post.Sites.Tau, b.Post.Sites.Tau) {
		t.Error("1 and 2 threads give different classifiers")
	}
}

func actives(bs []BatchStats) []int {
	var a []int
	for _, b := range bs {
		a = append(a, b.Active)
	}
	return a
}
