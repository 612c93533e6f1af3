package passgp

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestRestart: a search stalled at a θ whose evidence is below that of
// the run's initial θ is searched again from there, and θ and the
// posterior move to the higher evidence; at a θ above the initial one,
// or at the initial θ itself, nothing changes; with a hyperprior the
// comparison is the MAP-II objective, not log Z_EP alone.
func TestRestart(t *testing.T) {
	x, y, _ := noisy(t, 400, 1)
	xa, ya := mat.DenseCopyOf(x.Slice(0, 200, 0, 4)), y[:200]
	good := kernel.SE{Var: 4, Len2: 2, Jitter: 0.01}
	bad := kernel.SE{Var: 1e3, Len2: 0.01, Jitter: 0.01}
	setup := func(start, now kernel.Kernel, prior []ep.LogNormal) (*trainer, *ep.Posterior) {
		o := Options{Kernel: now, RestartStalled: 1, Prior: prior}
		c, err := checkInput(x, y, &o)
		if err != nil {
			t.Fatal(err)
		}
		tr := newTrainer(x, y, &c, &runner{threads: 1}, "")
		tr.theta0 = start.Params()
		tr.st.Tau, tr.st.Nu = make([]float64, len(ya)), make([]float64, len(ya))
		epo := c.epOptions()
		post, err := ep.Infer(now, xa, ya, nil, &epo)
		if err != nil {
			t.Fatal(err)
		}
		return tr, post
	}

	tr, post := setup(good, bad, nil)
	tau := tr.st.Tau
	var bs BatchStats
	got, err := tr.restart(context.Background(), xa, ya, post, &bs)
	if err != nil {
		t.Fatal(err)
	}
	if !bs.Restarted || !(got.LogZ > post.LogZ+1) || slices.Equal(tr.k.Params(), bad.Params()) {
		t.Errorf("from a stalled θ %v (log Z %.2f) below the initial one: restarted %v, θ %v, log Z %.2f", bad.Params(), post.LogZ, bs.Restarted, tr.k.Params(), got.LogZ)
	}
	if !slices.Equal(got.Kernel.Params(), tr.k.Params()) {
		t.Errorf("posterior at θ %v, trainer at %v", got.Kernel.Params(), tr.k.Params())
	}
	if bs.HypEvals < 2 || bs.HypEvals > 1+restartEvals || bs.HypTime <= 0 {
		t.Errorf("restart: %d evaluations in %v, want 2 to %d", bs.HypEvals, bs.HypTime, 1+restartEvals)
	}
	if &tr.st.Tau[0] != &tau[0] {
		t.Error("restart left the initial θ's sites in the state")
	}

	// From a θ whose evidence is higher than the initial one's: one EP
	// run, nothing moves.
	tr, post = setup(bad, good, nil)
	bs = BatchStats{}
	if got, err = tr.restart(context.Background(), xa, ya, post, &bs); err != nil {
		t.Fatal(err)
	}
	if got != post || bs.Restarted || bs.HypEvals != 1 || !slices.Equal(tr.k.Params(), good.Params()) {
		t.Errorf("above the initial θ: posterior replaced %v, restarted %v, %d evaluations, θ %v", got != post, bs.Restarted, bs.HypEvals, tr.k.Params())
	}

	// At the initial θ: not even the EP run.
	tr, post = setup(bad, bad, nil)
	bs = BatchStats{}
	if got, _ = tr.restart(context.Background(), xa, ya, post, &bs); got != post || bs.HypEvals != 0 {
		t.Errorf("at the initial θ: posterior replaced %v, %d evaluations", got != post, bs.HypEvals)
	}

	// A prior that puts the bad θ far above the good one: log Z_EP is
	// higher at the initial θ, the objective is not.
	prior := []ep.LogNormal{{Mean: math.Log(1e3), SD: 0.01}, {Mean: math.Log(0.01), SD: 0.01}, {}}
	tr, post = setup(good, bad, prior)
	bs = BatchStats{}
	if got, _ = tr.restart(context.Background(), xa, ya, post, &bs); got != post || bs.Restarted || bs.HypEvals != 1 {
		t.Errorf("with a prior at the stalled θ: posterior replaced %v, restarted %v, %d evaluations", got != post, bs.Restarted, bs.HypEvals)
	}
}

// TestRestartStalled: in a run whose short searches stall, the second
// start (Options.RestartStalled) is tried after every search that left θ
// unchanged from RestartStalled active points on, and only there; the
// run does not depend on the number of threads, and above every |A| it
// is the run without second starts, bit for bit. TestRestart checks what
// a second start does.
func TestRestartStalled(t *testing.T) {
	if testing.Short() {
		t.Skip("four trainings on 800 points")
	}
	x, y, _ := noisy(t, 800, 1)
	base := Options{Init: 50, Sub: 10, Passes: 3, Seed: 3, HypMaxEvals: 2, FinalHypEvals: 5,
		Kernel: kernel.SE{Var: 400, Len2: 0.05, Jitter: 0.01}}
	off, err := Train(context.Background(), x, y, &base)
	if err != nil {
		t.Fatal(err)
	}
	o := base
	o.RestartStalled = 100
	var runs [2]*Result
	for i, th := range []int{1, 2} {
		o.Threads = th
		if runs[i], err = Train(context.Background(), x, y, &o); err != nil {
			t.Fatal(err)
		}
	}
	// Every search that ended where it started from RestartStalled
	// points on costs one EP run more (the initial θ's), or, where that
	// was better, a search from there that moved θ.
	res := runs[0]
	checks := 0
	for i, b := range res.Batches {
		if b.HypEvals == 0 || i == 0 {
			continue
		}
		prev := res.Batches[i-1]
		switch stalled := slices.Equal(b.Theta, prev.Theta); {
		case b.Restarted:
			if stalled || b.HypEvals < o.HypMaxEvals+2 || prev.Active < o.RestartStalled {
				t.Errorf("batch %d (|A| = %d): restarted, θ %v after %v, %d evaluations", i, prev.Active, b.Theta, prev.Theta, b.HypEvals)
			}
		case stalled && prev.Active >= o.RestartStalled:
			checks++
			if b.HypEvals != o.HypMaxEvals+1 {
				t.Errorf("batch %d (|A| = %d): stalled, %d evaluations, want %d", i, prev.Active, b.HypEvals, o.HypMaxEvals+1)
			}
		case stalled && b.HypEvals != o.HypMaxEvals:
			t.Errorf("batch %d (|A| = %d): stalled below %d, %d evaluations", i, prev.Active, o.RestartStalled, b.HypEvals)
		}
	}
	if checks == 0 {
		t.Fatalf("no stalled search from %d points on; evaluations per batch %v", o.RestartStalled, evalsPerBatch(res.Batches))
	}
	if !slices.Equal(res.Model.Kernel.Params(), runs[1].Model.Kernel.Params()) || !slices.Equal(res.Model.Active, runs[1].Model.Active) {
		t.Errorf("1 and 2 threads differ: θ %v and %v", res.Model.Kernel.Params(), runs[1].Model.Kernel.Params())
	}
	o.Threads = 0
	o.RestartStalled, _ = x.Dims()
	hi, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(hi.Model.Kernel.Params(), off.Model.Kernel.Params()) || !slices.Equal(hi.Model.Active, off.Model.Active) ||
		!slices.Equal(hi.Model.Post.Sites.Nu, off.Model.Post.Sites.Nu) {
		t.Error("RestartStalled above every |A| changed the run")
	}
}

func evalsPerBatch(bs []BatchStats) []int {
	out := make([]int, len(bs))
	for i, b := range bs {
		out[i] = b.HypEvals
	}
	return out
}
