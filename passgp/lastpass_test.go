package passgp

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/passgp-fast/passgp-fast/ep"
)

// TestHeldOutReusesLastPass: with θ kept through the last pass (the
// budget binds), the held-out latent of a point inactive at the end is the
// prediction its batch of the last pass made, by the posterior of that
// batch, which never saw the point; every other point gets what it got
// before (the cavity of an active point, the final posterior's prediction
// of an inactive point without such a score).
func TestHeldOutReusesLastPass(t *testing.T) {
	x, y := toy(300, 41)
	var states []State // after every batch
	o := Options{Init: 25, Sub: 3, Passes: 2, Seed: 5, MaxActive: 40, Threads: 1,
		Checkpoint: func(s *State) { states = append(states, cloneState(s)) }}
	res, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	last := states[len(states)-1]
	if !last.Frozen || len(last.HeldAt) != 300 {
		t.Fatalf("Frozen = %v, %d scores: the test needs a budget that binds before the last pass", last.Frozen, len(last.HeldAt))
	}
	inA := make([]bool, 300)
	for _, a := range res.Model.Active {
		inA[a] = true
	}
	plain, plainShare, _, err := heldOutLatents(context.Background(), &runner{threads: 1}, res.Model, DenseRows(x), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	reused := 0
	for i := range inA {
		at := last.HeldAt[i]
		switch {
		case !inA[i] && at > 0 && at >= last.ThetaSince:
			reused++
			z := last.HeldMean[i] / math.Sqrt(1+last.HeldVar[i])
			if res.HeldOut[i] != z {
				t.Fatalf("point %d: held-out latent %v, its last-pass score %v", i, res.HeldOut[i], z)
			}
		case !sameToRounding(res.HeldOut[i], plain[i]) || !sameToRounding(res.HeldOutShare[i], plainShare[i]):
			// The final posterior's prediction, to rounding: BLAS rounds
			// a row's product in the last bits differently with the other
			// rows it is predicted with, and with reuse fewer rows are.
			t.Fatalf("point %d (active %v, scored at %d): held-out (%v, %v), without reuse (%v, %v)",
				i, inA[i], at, res.HeldOut[i], res.HeldOutShare[i], plain[i], plainShare[i])
		}
	}
	if reused < 150 {
		t.Fatalf("%d of 300 latents reused", reused)
	}

	// Each score is the prediction of the posterior of the batch that made
	// it: EP on the active set before that batch, at its θ.
	nsub := len(last.Bounds) - 1
	for b := (o.Passes - 1) * nsub; b < len(states); b++ {
		before := states[b-1]
		xa, ya := gatherRows(x, before.Active), gather(y, before.Active)
		k := DefaultKernel(PASSGP, 2).WithParams(before.Theta)
		epo := ep.Options{Tol: DefaultEPTol}
		if before.Frozen && adfSites {
			// As the trainer's batch runs EP once θ is frozen.
			epo.MinSweeps, epo.KeepWarm = 1, true
		}
		post, err := ep.Infer(k, xa, ya, &ep.Sites{Tau: slices.Clone(before.Tau), Nu: slices.Clone(before.Nu)}, &epo)
		if err != nil {
			t.Fatal(err)
		}
		var rows []int
		for i, at := range last.HeldAt {
			if at == b+1 {
				rows = append(rows, i)
			}
		}
		if len(rows) == 0 {
			continue
		}
		mean, vr := make([]float64, len(rows)), make([]float64, len(rows))
		if err := (&runner{threads: 1}).predictRowsContext(context.Background(), post, k, xa, DenseRows(x), rows, mean, vr, nil); err != nil {
			t.Fatal(err)
		}
		for j, i := range rows {
			if math.Abs(mean[j]-last.HeldMean[i]) > 1e-12 || math.Abs(vr[j]-last.HeldVar[i]) > 1e-12 {
				t.Fatalf("batch %d, point %d: kept score N(%v, %v), the batch's posterior predicts N(%v, %v)",
					b, i, last.HeldMean[i], last.HeldVar[i], mean[j], vr[j])
			}
		}
	}
}

// TestHeldOutNoReuseAfterNewTheta: when the final search moves θ, no
// score of the last pass is at the final θ, and every inactive point is
// predicted by the final posterior, as before the scores were kept.
func TestHeldOutNoReuseAfterNewTheta(t *testing.T) {
	x, y := toy(300, 42)
	res, err := Train(context.Background(), x, y, &Options{Init: 25, Sub: 3, Passes: 2, Seed: 5, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Batches[len(res.Batches)-1].Theta == nil || slices.Equal(res.Batches[len(res.Batches)-1].Theta, res.Model.Kernel.Params()) {
		t.Fatal("the final search kept θ; the test needs one that moves it")
	}
	plain, share, _, err := heldOutLatents(context.Background(), &runner{threads: 1}, res.Model, DenseRows(x), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plain, res.HeldOut) || !slices.Equal(share, res.HeldOutShare) {
		t.Error("held-out latents differ from the final posterior's")
	}
}

// TestHeldOutFPASSGPFinal: fPASS-GP keeps no last-pass scores, even at a
// fixed θ, where PASS-GP would reuse them: its held-out latents are the
// final posterior's predictions (and the active points' cavities).
func TestHeldOutFPASSGPFinal(t *testing.T) {
	x, y := toy(300, 43)
	var last State
	res, err := Train(context.Background(), x, y, &Options{Method: FPASSGP, M: 30, Init: 30, Sub: 3, Passes: 2, PExc: 0.1, Seed: 5,
		Kernel: toyKernel(), FixedTheta: true, Threads: 1, Checkpoint: func(s *State) { last = cloneState(s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(last.HeldAt) != 0 {
		t.Fatalf("%d last-pass scores kept", len(last.HeldAt))
	}
	plain, share, _, err := heldOutLatents(context.Background(), &runner{threads: 1}, res.Model, DenseRows(x), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plain, res.HeldOut) || !slices.Equal(share, res.HeldOutShare) {
		t.Error("held-out latents differ from the final posterior's")
	}
}

// sameToRounding reports whether a and b agree to 1e-12 relative to max(1, |a|).
func sameToRounding(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(a)) }
