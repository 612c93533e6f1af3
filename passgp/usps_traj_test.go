package passgp

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/passgp-fast/passgp-fast/ep"
)

// TestUSPSTrajectory logs PASS-GP's per-batch θ, optimiser evaluations,
// |A|, inclusions and deletions on one USPS digit, and how far the final θ
// is from a converged optimum on the final active set. Gated:
// PASSGP_USPS_TRAJ=<digit> [PASSGP_EVALS=k] go test -run Trajectory -v ./passgp
func TestUSPSTrajectory(t *testing.T) {
	ds := os.Getenv("PASSGP_USPS_TRAJ")
	if ds == "" {
		t.Skip("set PASSGP_USPS_TRAJ=<digit>")
	}
	digit, _ := strconv.ParseFloat(ds, 64)
	xtr, ytr, xte, yte := loadUSPS(t)
	y, yt := oneVsRest(t, ytr, digit), oneVsRest(t, yte, digit)
	o := &Options{Threads: 1}
	o.HypMaxEvals, _ = strconv.Atoi(os.Getenv("PASSGP_EVALS"))
	o.FinalHypEvals, _ = strconv.Atoi(os.Getenv("PASSGP_FINALEVALS"))
	if s := os.Getenv("PASSGP_SEED"); s != "" {
		v, _ := strconv.Atoi(s)
		o.Seed = uint64(v)
	}
	res, err := Train(context.Background(), xtr, y, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range res.Batches {
		t.Logf("pass %d batch %d: |A| %4d +%3d -%3d  evals %2d  logZ %9.3f  θ %.4g", b.Pass, b.Batch, b.Active, b.Included, b.Deleted, b.HypEvals, b.LogZ, b.Theta)
	}
	n, _ := xte.Dims()
	prob := make([]float64, n)
	res.Model.PredictTo(prob, xte)
	t.Logf("final θ %.4g  logZ %.3f  test error %.2f%%", res.Model.Kernel.Params(), res.Model.Post.LogZ, 100*ProbErrorRate(prob, yt))
	// A converged optimisation on the final active set, for comparison.
	_, d := xtr.Dims()
	c, err := resolve(o, d)
	if err != nil {
		t.Fatal(err)
	}
	c.lower, c.upper = thetaBounds(&c, xtr)
	r, err := ep.Optimize(res.Model.Kernel, res.Model.X, res.Model.Y, &res.Model.Post.Sites,
		&ep.OptimizeOptions{MaxEvals: 200, Lower: c.lower, Upper: c.upper})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("converged on final A: θ %.4g  logZ %.3f  (%d evals, %s)", r.Kernel.Params(), r.Post.LogZ, r.Evals, r.Status)
}
