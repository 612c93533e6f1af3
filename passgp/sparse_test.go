package passgp

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestFITCPass checks TrainFITC for every active set method: the
// classifier predicts what ep.InferFITC on all points with its active set
// as inducing inputs predicts and its held-out latents are that
// posterior's cavities. On the toy task a 10-point active set predicts
// better with the pass than without it.
func TestFITCPass(t *testing.T) {
	x, y := toy(400, 3)
	xt, yt := toy(2000, 4)
	for _, m := range []Method{PASSGP, FPASSGP, IVM, Random} {
		o := Options{Method: m, M: 10, Init: 10, Sub: 4, PExc: 0.2, Kernel: toyKernel(), FixedTheta: true, Seed: 2, Threads: 1}
		plain, err := Train(context.Background(), x, y, &o)
		if err != nil {
			t.Fatal(err)
		}
		res, err := TrainFITC(context.Background(), plain.Model, x, y, &Options{Threads: 1, FixedTheta: true})
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		b := res.Model
		if b.Sparse == nil {
			t.Fatalf("%v: no FITC posterior", m)
		}
		f, err := ep.InferFITC(context.Background(), b.Kernel, x, y, b.X, nil, &ep.Options{Tol: 1e-4})
		if err != nil {
			t.Fatal(err)
		}
		n, _ := xt.Dims()
		got, want := make([]float64, n), make([]float64, n)
		gv, wv := make([]float64, n), make([]float64, n)
		b.PredictMeanVarTo(got, gv, xt)
		f.PredictTo(want, wv, nil, xt)
		if d := max(maxDiff(got, want), maxDiff(gv, wv)); d > 1e-12 {
			t.Errorf("%v: predictions differ from InferFITC's by %g", m, d)
		}
		if err := b.PredictMeanVarToContext(context.Background(), got, gv, xt); err != nil || maxDiff(got, want) > 1e-12 {
			t.Errorf("%v: PredictMeanVarToContext: %v, differs by %g", m, err, maxDiff(got, want))
		}
		cm, cv := make([]float64, len(y)), make([]float64, len(y))
		f.CavityTo(cm, cv)
		for i := range cm {
			if z := cm[i] / math.Sqrt(1+cv[i]); math.Abs(z-res.HeldOut[i]) > 1e-12 {
				t.Fatalf("%v: held-out latent %d is %v, FITC cavity gives %v", m, i, res.HeldOut[i], z)
			}
		}
		if res.Calibration == nil {
			t.Errorf("%v: no calibration", m)
		}
		p0, p1 := make([]float64, n), make([]float64, n)
		plain.Model.PredictTo(p0, xt)
		b.PredictTo(p1, xt)
		e0, e1 := calib.ProbErrorRate(p0, yt), calib.ProbErrorRate(p1, yt)
		if e1 > e0 {
			t.Errorf("%v: test error %.4f with the FITC pass, %.4f without", m, e1, e0)
		}
		t.Logf("%v, |A| = %d: test error %.4f -> %.4f with the FITC pass", m, len(b.Y), e0, e1)
	}
}

// TestTrainFITC: TrainFITC leaves the classifier it was given as it was
// and refuses labels of the wrong length.
func TestTrainFITC(t *testing.T) {
	x, y := toy(300, 5)
	o := Options{Method: FPASSGP, M: 12, Init: 12, Sub: 3, PExc: 0.2, Kernel: toyKernel(), FixedTheta: true, Seed: 4, Threads: 1}
	plain, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := TrainFITC(context.Background(), plain.Model, x, y, &Options{Threads: 1, FixedTheta: true})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Model.Sparse != nil || got.Model.Sparse == nil {
		t.Fatalf("sparse posterior: given classifier %v, result %v", plain.Model.Sparse != nil, got.Model.Sparse != nil)
	}
	if _, err := TrainFITC(context.Background(), plain.Model, x, y[1:], nil); err == nil {
		t.Error("labels of the wrong length accepted")
	}
}

// searchConfig is the config of fitcTheta's search on x with kernel k:
// train's θ bounds for x.
func searchConfig(t *testing.T, k kernel.Kernel, x *mat.Dense) *config {
	t.Helper()
	_, d := x.Dims()
	c, err := resolve(&Options{Kernel: k, Threads: 1}, d)
	if err != nil {
		t.Fatal(err)
	}
	if c.lower, c.upper, err = thetaBounds(&c, DenseRows(x)); err != nil {
		t.Fatal(err)
	}
	return &c
}

// TestFITCTheta: fitcTheta's search raises the FITC model's log Z_EP
// above its start's, moves θ, and returns a posterior whose kernel is the
// θ it reports.
func TestFITCTheta(t *testing.T) {
	x, y := toy(300, 7)
	o := Options{Method: FPASSGP, M: 15, Init: 15, Sub: 3, PExc: 0.2, Kernel: toyKernel(), FixedTheta: true, Seed: 3, Threads: 1}
	plain, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	c := searchConfig(t, plain.Model.Kernel, x)
	eo := c.finalEPOptions()
	f0, err := ep.InferFITC(context.Background(), plain.Model.Kernel, x, y, plain.Model.X, nil, &eo)
	if err != nil {
		t.Fatal(err)
	}
	f, err := fitcTheta(context.Background(), c, f0, x, y, plain.Model.X, &eo, boundSearchEvals)
	if err != nil {
		t.Fatal(err)
	}
	th := f.Kernel.Params()
	if slices.Equal(th, toyKernel().Params()) {
		t.Fatalf("θ unchanged: %v", th)
	}
	if !(f.LogZ > f0.LogZ) {
		t.Errorf("log Z_EP %v after the search, %v at the selection's θ", f.LogZ, f0.LogZ)
	}
	g, err := ep.InferFITC(context.Background(), f.Kernel, x, y, plain.Model.X, nil, &eo)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(g.LogZ-f.LogZ) > 1e-3*math.Abs(f.LogZ) {
		t.Errorf("log Z_EP %v reported, %v from a fresh run at its θ", f.LogZ, g.LogZ)
	}
	t.Logf("θ %v -> %v, log Z %.2f -> %.2f", toyKernel().Params(), th, f0.LogZ, f.LogZ)
}

// TestFITCNotConverged: where the FITC pass's EP does not converge even
// with halved steps (near-duplicate inputs with conflicting labels, 5
// sweeps per step), train keeps its last iterate and says so
// (Result.FITCNotConverged) instead of failing; where it converges, the
// flag is clear.
func TestFITCNotConverged(t *testing.T) {
	x, y := conflicted(300)
	o := Options{Method: Random, M: 30, Seed: 1, Threads: 1, FixedTheta: true,
		Kernel: kernel.SE{Var: 1000, Len2: 1, Jitter: 1e-2}, EP: ep.Options{MaxSweeps: 5}}
	plain, err := Train(context.Background(), x, y, &o)
	if err != nil {
		t.Fatal(err)
	}
	fitc := func() (*Result, error) {
		return TrainFITC(context.Background(), plain.Model, x, y, &o)
	}
	res, err := fitc()
	if err != nil || !res.FITCNotConverged || res.Model.Sparse == nil || res.Model.Sparse.Sweeps != 15 || res.Calibration == nil {
		t.Fatalf("error %v, flag %v", err, res != nil && res.FITCNotConverged)
	}
	o.EP.MaxSweeps = 0
	if res, err = fitc(); err != nil || res.FITCNotConverged || res.Model.Sparse == nil {
		t.Errorf("default sweeps: error %v, flag %v", err, res != nil && res.FITCNotConverged)
	}
}

// conflicted returns n points in 30 tight clusters (spread 0.01) in two
// dimensions, labelled by their centre's side with 10% of labels flipped:
// near-duplicate inputs with conflicting labels, where EP converges slowly.
func conflicted(n int) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(1, 3))
	const c = 30
	cen := make([][2]float64, c)
	for i := range cen {
		cen[i] = [2]float64{rng.NormFloat64(), rng.NormFloat64()}
	}
	x := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range n {
		ci := i % c
		y[i] = 1
		if cen[ci][0] < 0 {
			y[i] = -1
		}
		if rng.Float64() < 0.1 {
			y[i] = -y[i]
		}
		x.Set(i, 0, cen[ci][0]+0.01*rng.NormFloat64())
		x.Set(i, 1, cen[ci][1]+0.01*rng.NormFloat64())
	}
	return x, y
}
