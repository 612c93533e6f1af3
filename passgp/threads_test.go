package passgp

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
)

// wide returns n seeded points in d dimensions whose label is the sign of
// a noisy linear function of the first 8 coordinates.
func wide(n, d int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 77))
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		s := 0.0
		for j := range d {
			v := rng.NormFloat64()
			x.Set(i, j, v)
			if j < 8 {
				s += v
			}
		}
		y[i] = 1
		if s+rng.NormFloat64() < 0 {
			y[i] = -1
		}
	}
	return x, y
}

// wideKernel suits wide's 64-dimensional inputs.
func wideKernel() kernel.Kernel { return kernel.SE{Var: 2, Len2: 64, Jitter: 1e-4} }

// withBLASThreads runs f with the BLAS library at n threads, as an
// application would set it, and restores the setting.
func withBLASThreads(n int, f func()) {
	defer la.LimitBLAS(n)()
	f()
}

// TestThreadsDeterministic: results do not depend on Options.Threads, at
// sizes that reach the blocked BLAS paths (|A| >= 500, d = 64), with BLAS
// single-threaded (so that the Go worker pools run) and multi-threaded.
func TestThreadsDeterministic(t *testing.T) {
	x, y := wide(1100, 64, 8)
	run := func(th int) *Result {
		res, err := Train(context.Background(), x, y, &Options{Method: FPASSGP, M: 520, Sub: 2, Passes: 1, Seed: 9,
			Kernel: wideKernel(), FixedTheta: true, Threads: th})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, blas := range []int{1, 2} {
		withBLASThreads(blas, func() {
			a, b := run(1), run(2)
			if len(a.Model.Active) < 500 {
				t.Fatalf("|A| = %d, want >= 500", len(a.Model.Active))
			}
			if !slices.Equal(a.Model.Active, b.Model.Active) {
				t.Fatalf("BLAS %d: active sets differ between 1 and 2 threads", blas)
			}
			if !slices.Equal(a.Model.Post.Sites.Tau, b.Model.Post.Sites.Tau) || !slices.Equal(a.Model.Post.Sites.Nu, b.Model.Post.Sites.Nu) {
				t.Errorf("BLAS %d: sites differ between 1 and 2 threads", blas)
			}
			xs, _ := wide(700, 64, 10)
			pa, pb := make([]float64, 700), make([]float64, 700)
			a.Model.PredictTo(pa, xs)
			b.Model.PredictTo(pb, xs)
			if !slices.Equal(pa, pb) {
				t.Errorf("BLAS %d: predictions differ between 1 and 2 threads", blas)
			}
		})
	}
}

// bigBinary returns a classifier on m active points in d dimensions with
// seeded positive sites, built as a loaded model is.
func bigBinary(t testing.TB, m, d int) *Binary {
	xa, ya := wide(m, d, 3)
	rng := rand.New(rand.NewPCG(4, 4))
	s := ep.Sites{Tau: make([]float64, m), Nu: make([]float64, m)}
	for i := range m {
		s.Tau[i] = 0.1 + rng.Float64()
		s.Nu[i] = ya[i] * rng.Float64()
	}
	b, err := newBinary(wideKernel(), xa, ya, nil, s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestConcurrentPredict: 8 goroutines predicting with one shared model
// give the serial results bit for bit, with BLAS single-threaded (the
// serving policy) and multi-threaded, also for the calibration's inputs
// (LatentShareTo).
func TestConcurrentPredict(t *testing.T) {
	b := bigBinary(t, 600, 64)
	mc := &MultiClass{Classes: []float64{0, 1}, Models: []*Binary{b, b}}
	const g = 8
	xs := make([]*mat.Dense, g)
	want, wantShare := make([][]float64, g), make([][]float64, g)
	for _, blas := range []int{1, 2} {
		withBLASThreads(blas, func() {
			for i := range g {
				xs[i], _ = wide(300+37*i, 64, uint64(20+i))
				want[i] = make([]float64, 2*(300+37*i))
				n, _ := xs[i].Dims()
				b.PredictMeanVarTo(want[i][:n], want[i][n:], xs[i])
				wantShare[i] = make([]float64, 2*n)
				b.LatentShareTo(wantShare[i][:n], wantShare[i][n:], xs[i])
			}
			var wg sync.WaitGroup
			for i := range g {
				wg.Go(func() {
					n, _ := xs[i].Dims()
					got := make([]float64, 2*n)
					for range 2 {
						b.PredictMeanVarTo(got[:n], got[n:], xs[i])
						if !slices.Equal(got, want[i]) {
							t.Errorf("BLAS %d, goroutine %d: concurrent prediction differs from serial", blas, i)
							return
						}
						share := make([]float64, 2*n)
						b.LatentShareTo(share[:n], share[n:], xs[i])
						if !slices.Equal(share, wantShare[i]) {
							t.Errorf("BLAS %d, goroutine %d: concurrent LatentShareTo differs from serial", blas, i)
							return
						}
						cls := make([]float64, n)
						mc.PredictTo(cls, xs[i])
					}
				})
			}
			wg.Wait()
		})
	}
}

// TestNoBLASThreadChanges: training and prediction never change the
// process-wide BLAS thread count, not even for a moment (an observer polls
// it throughout).
func TestNoBLASThreadChanges(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 cores for a multi-threaded BLAS")
	}
	withBLASThreads(2, func() {
		if la.BLASThreads() != 2 {
			t.Skipf("BLAS threads stay at %d", la.BLASThreads())
		}
		var stop atomic.Bool
		var seen atomic.Int64
		seen.Store(2)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for !stop.Load() {
				if n := la.BLASThreads(); n != 2 {
					seen.Store(int64(n))
				}
				runtime.Gosched()
			}
		}()
		x, y := wide(400, 64, 5)
		labels := slices.Clone(y)
		for i := range labels {
			labels[i] = float64(i % 3)
		}
		if _, err := Train(context.Background(), x, y, &Options{Init: 50, Sub: 2, Passes: 1, Seed: 1, Kernel: wideKernel(), FixedTheta: true, Threads: 2}); err != nil {
			t.Fatal(err)
		}
		if _, err := TrainMulti(context.Background(), x, labels, &Options{Method: Random, M: 60, Seed: 1, Kernel: wideKernel(), FixedTheta: true, Threads: 2}); err != nil {
			t.Fatal(err)
		}
		b := bigBinary(t, 300, 64)
		p := make([]float64, 400)
		b.PredictTo(p, x)
		stop.Store(true)
		<-done
		if n := seen.Load(); n != 2 {
			t.Errorf("the BLAS thread count changed to %d during a library call", n)
		}
	})
}

// TestConcurrentTrain: two goroutines training on separate data at once
// give the classifiers that serial calls give (run under -race by CI).
func TestConcurrentTrain(t *testing.T) {
	xa, ya := wide(300, 16, 41)
	xb, yb := wide(260, 16, 42)
	o := Options{Init: 40, Sub: 2, Passes: 1, Seed: 2, Kernel: kernel.SE{Var: 2, Len2: 16, Jitter: 1e-4}}
	train := func(x *mat.Dense, y []float64) *Result {
		oc := o
		r, err := Train(context.Background(), x, y, &oc)
		if err != nil {
			t.Error(err)
		}
		return r
	}
	wantA, wantB := train(xa, ya), train(xb, yb)
	var gotA, gotB *Result
	var wg sync.WaitGroup
	wg.Go(func() { gotA = train(xa, ya) })
	wg.Go(func() { gotB = train(xb, yb) })
	wg.Wait()
	for _, p := range []struct{ got, want *Result }{{gotA, wantA}, {gotB, wantB}} {
		if p.got == nil || !slices.Equal(p.got.Model.Active, p.want.Model.Active) || !slices.Equal(p.got.Model.Post.Sites.Nu, p.want.Model.Post.Sites.Nu) {
			t.Fatal("a concurrent Train differs from the serial one")
		}
	}
}

// TestPredictContext: PredictMeanVarToContext equals PredictMeanVarTo, and
// stops with the context's error when the context has ended.
func TestPredictContext(t *testing.T) {
	b := bigBinary(t, 300, 16)
	x, _ := wide(2000, 16, 9)
	m1, v1 := make([]float64, 2000), make([]float64, 2000)
	m2, v2 := make([]float64, 2000), make([]float64, 2000)
	b.PredictMeanVarTo(m1, v1, x)
	if err := b.PredictMeanVarToContext(context.Background(), m2, v2, x); err != nil || !slices.Equal(m1, m2) || !slices.Equal(v1, v2) {
		t.Fatalf("context variant differs (err %v)", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.PredictMeanVarToContext(ctx, m2, nil, x); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
