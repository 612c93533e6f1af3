package bench

import (
	"context"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/passgp"
)

var (
	serveOnce  sync.Once
	serveModel *passgp.Binary
	serveErr   error
)

// serveBinary is a classifier with |A| = 1000, d = 64 (the full GPC on
// 1000 seeded points at a fixed θ), trained once.
func serveBinary(b *testing.B) *passgp.Binary {
	serveOnce.Do(func() {
		const m, d = 1000, 64
		xa := mat.NewDense(m, d, RandGeneral(m, d, 5).Data)
		ya := make([]float64, m)
		for i := range ya {
			ya[i] = 1
			if xa.At(i, 0)+xa.At(i, 1)+xa.At(i, 2) < 0 {
				ya[i] = -1
			}
		}
		var res *passgp.Result
		res, serveErr = passgp.Train(context.Background(), xa, ya, &passgp.Options{Method: passgp.Full, FixedTheta: true,
			Kernel: kernel.SE{Var: 4, Len2: 16, Jitter: 1e-2}})
		if serveErr == nil {
			serveModel = res.Model
		}
	})
	if serveErr != nil {
		b.Fatal(serveErr)
	}
	return serveModel
}

// BenchmarkPredictConcurrent is a service predicting 256-row blocks from g
// goroutines that share one model (|A| = 1000, d = 64). One op is one block
// per goroutine; points/s is the throughput of all of them. blas=1 is the
// serving policy of la's documentation, la.SetThreads(1): each call on one
// core; blas=all leaves every call using all cores (OpenBLAS
// multi-threaded), where concurrent calls queue.
func BenchmarkPredictConcurrent(b *testing.B) {
	const rows, d = 256, 64
	for _, blas := range []int{1, 0} {
		name := "blas=1"
		if blas == 0 {
			name = "blas=all"
		}
		for _, g := range []int{1, 2, 4, 8} {
			b.Run(name+"/goroutines="+itoa(g), func(b *testing.B) {
				m := serveBinary(b)
				if blas > 0 {
					// The serving policy: one thread per call, Go pools
					// and BLAS alike; the goroutines use the cores.
					old := la.Threads()
					la.SetThreads(blas)
					defer la.SetThreads(old)
				}
				xs := make([]*mat.Dense, g)
				out := make([][]float64, g)
				for i := range xs {
					xs[i] = mat.NewDense(rows, d, RandGeneral(rows, d, uint64(10+i)).Data)
					out[i] = make([]float64, 2*rows)
				}
				start := time.Now()
				b.ResetTimer()
				for range b.N {
					var wg sync.WaitGroup
					for i := range g {
						wg.Go(func() { m.PredictMeanVarTo(out[i][:rows], out[i][rows:], xs[i]) })
					}
					wg.Wait()
				}
				b.ReportMetric(float64(b.N*g*rows)/time.Since(start).Seconds(), "points/s")
			})
		}
	}
}

// BenchmarkPredictLatency is the time to predict one point with the model
// of BenchmarkPredictConcurrent.
func BenchmarkPredictLatency(b *testing.B) {
	m := serveBinary(b)
	x := mat.NewDense(1, 64, RandGeneral(1, 64, 3).Data)
	p := make([]float64, 1)
	b.ResetTimer()
	for range b.N {
		m.PredictTo(p, x)
	}
}

// BenchmarkLatentShare times the inputs of a calibrated prediction,
// LatentShareTo's latents and prior-variance shares, |A| = 1000, d = 64,
// 4096 rows: a Gram block (2·n·m·d FLOPs) and the variance's triangular
// solve (n·m²).
func BenchmarkLatentShare(b *testing.B) {
	const n, d = 4096, 64
	bin := serveBinary(b)
	m, _ := bin.X.Dims()
	x := mat.NewDense(n, d, RandGeneral(n, d, 13).Data)
	z, rho := make([]float64, n), make([]float64, n)
	for b.Loop() {
		bin.LatentShareTo(z, rho, x)
	}
	ReportFLOPs(b, 2*float64(n)*float64(m)*d+float64(n)*float64(m)*float64(m))
}
