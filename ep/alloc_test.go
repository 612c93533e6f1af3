package ep

import (
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
)

// TestSweepAllocations: after the first sweep has grown the pooled
// workspaces, a sweep of either schedule allocates far less than one n×n
// matrix.
func TestSweepAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	const n = 300
	x, y := blobs(n, 21)
	k := kernel.SE{Var: 2, Len2: 1, Jitter: 1e-4}
	p, err := Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// No collection while measuring: it would empty the sync.Pools. One P:
	// a sync.Pool keeps an item in the private slot of the P that put it,
	// which a goroutine that migrated to another P does not see (the test
	// was flaky on 2 cores).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, s := range schedules {
		it, err := NewIteration(k, x, y, &p.Sites, &Options{Schedule: s})
		if err != nil {
			t.Fatal(err)
		}
		it.Sweep() // grow the pools
		perSweep := bytesPerCall(3, func() {
			if _, err := it.Sweep(); err != nil {
				t.Fatal(err)
			}
		})
		it.Close()
		if limit := 8.0 * n * n / 10; perSweep > limit {
			t.Errorf("%v: %.0f bytes allocated per sweep, want < %.0f", s, perSweep, limit)
		}
	}
}

// bytesPerCall returns the bytes allocated per call over calls calls of
// f. The caller turns collection off and runs on one P (see
// TestSweepAllocations), so that the pools keep their items.
func bytesPerCall(calls int, f func()) float64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for i := 0; i < calls; i++ {
		f()
	}
	runtime.ReadMemStats(&m1)
	return float64(m1.TotalAlloc-m0.TotalAlloc) / float64(calls)
}

// TestGradientPredictAllocations: GradientTo's n×n W and PredictCrossTo's
// copy of K* come from a pool, so that repeated calls (a θ search, the
// scoring of a pass) do not allocate them each time. GradientTo still
// allocates the kernel's n×n distances (kernel.SE's contraction), so its
// bound is 1.5 such matrices: with W allocated too it would be 2.
func TestGradientPredictAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	const n, m = 300, 200
	x, y := blobs(n, 22)
	xs, _ := blobs(m, 23)
	k := kernel.SE{Var: 2, Len2: 1, Jitter: 1e-4}
	p, err := Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ks := mat.NewDense(m, n, nil)
	k.CrossTo(ks, xs, x)
	kss := make([]float64, m)
	k.DiagTo(kss, xs)
	mean, vr := make([]float64, m), make([]float64, m)
	g := make([]float64, len(k.Params()))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	p.GradientTo(g) // grow the pool
	p.PredictCrossTo(mean, vr, nil, ks, kss)
	for _, tc := range []struct {
		name  string
		f     func()
		limit float64
	}{
		{"GradientTo", func() { p.GradientTo(g) }, 1.5 * 8 * n * n},
		{"PredictCrossTo", func() { p.PredictCrossTo(mean, vr, nil, ks, kss) }, 8.0 * m * n / 10},
	} {
		if per := bytesPerCall(3, tc.f); per > tc.limit {
			t.Errorf("%s: %.0f bytes allocated per call, want < %.0f", tc.name, per, tc.limit)
		}
	}
}

// TestPooledCovariancePoisoned: a prior covariance taken from the pool that
// another run left NaN in gives the posterior of a fresh one, bit for bit.
func TestPooledCovariancePoisoned(t *testing.T) {
	const n = 120
	x, y := blobs(n, 24)
	k := kernel.SE{Var: 2, Len2: 1, Jitter: 1e-4}
	want, err := Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for i := 0; i < 4; i++ {
		b := la.GetScratch(n * n)
		for j := range *b {
			(*b)[j] = math.NaN()
		}
		la.PutScratch(b)
	}
	got, err := Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.LogZ != want.LogZ || !slices.Equal(got.Sites.Tau, want.Sites.Tau) || !slices.Equal(got.Mean, want.Mean) {
		t.Errorf("log Z %v, want %v", got.LogZ, want.LogZ)
	}
}
