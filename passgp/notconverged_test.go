package passgp

import (
	"context"
	"testing"

	"github.com/passgp-fast/passgp-fast/ep"
)

// TestNotConvergedReported: with EP capped at one sweep, every method
// that runs EP reports the non-convergence in its Result: the batches
// whose EP (the optimiser's or the batch's own) hit the cap, and the
// final posterior, with the hyperparameter search at its defaults (it
// used to turn a NotConvergedError into success, which hid it).
func TestNotConvergedReported(t *testing.T) {
	x, y := toy(150, 33)
	for _, m := range []Method{PASSGP, FPASSGP, Random, Full} {
		t.Run(m.String(), func(t *testing.T) {
			o := &Options{Method: m, M: 40, Init: 20, PExc: 0.25, Sub: 3, Passes: 1, Seed: 6, Threads: 1,
				EP: ep.Options{MinSweeps: 1, MaxSweeps: 1, Tol: 1e-14}}
			res, err := Train(context.Background(), x, y, o)
			if err != nil {
				t.Fatal(err)
			}
			nc := 0
			for _, b := range res.Batches {
				if b.NotConverged {
					nc++
				}
			}
			if nc == 0 || !res.NotConverged {
				t.Errorf("%d of %d batches not converged, final not converged %v: want both reported", nc, len(res.Batches), res.NotConverged)
			}
			if res.HypNotConverged == 0 || res.HypNotConverged < hypNotConverged(res.Batches) {
				t.Errorf("hyperparameter search: %d EP runs at the cap reported (batches: %d)", res.HypNotConverged, hypNotConverged(res.Batches))
			}
			// The same run with the default cap converges and says so.
			o.EP = ep.Options{}
			res, err = Train(context.Background(), x, y, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.NotConverged || res.HypNotConverged != 0 {
				t.Errorf("reported not converged with the default cap: final %v, search %d", res.NotConverged, res.HypNotConverged)
			}
		})
	}
}
