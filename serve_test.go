package passgpfast

import (
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
	"github.com/passgp-fast/passgp-fast/synth"
)

// TestConcurrentPredict: eight goroutines predicting with one calibrated
// three-class Classifier, with and without the turns, get exactly what a
// serial call gets (one code path run twice: bit equality), also under
// -race.
func TestConcurrentPredict(t *testing.T) {
	ds, err := synth.Dataset(synth.Task{Classes: 3, D: 4}, 200, 4)
	if err != nil {
		t.Fatal(err)
	}
	clf, err := FitDataset(context.Background(), ds, WithSeed(2), WithThreads(1), WithSchedule(20, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	x := randDense(300, 4, 9, 3)
	want, err := clf.Predict(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	defer func(v bool) { serveTurns = v }(serveTurns)
	for _, turns := range []bool{true, false} {
		serveTurns = turns
		var wg sync.WaitGroup
		errs := make([]string, 8)
		for g := range 8 {
			wg.Go(func() {
				for range 3 {
					p, err := clf.Predict(context.Background(), x)
					switch {
					case err != nil:
						errs[g] = err.Error()
					case !mat.Equal(p.Prob, want.Prob) || !mat.Equal(p.Z, want.Z) || !mat.Equal(p.CRho, want.CRho):
						errs[g] = "predictions differ from the serial call's"
					}
				}
			})
		}
		wg.Wait()
		for g, e := range errs {
			if e != "" {
				t.Errorf("turns %v, goroutine %d: %s", turns, g, e)
			}
		}
	}
}

func randDense(n, d int, seed uint64, scale float64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 5))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, scale*r.NormFloat64())
		}
	}
	return x
}

var (
	serveOnce sync.Once
	serveClf  *Classifier
)

// serveClassifier is a binary Classifier with |A| = 1000, d = 64 (full
// EP on 1000 seeded points at a fixed θ), as bench's
// BenchmarkPredictConcurrent serves.
func serveClassifier(b *testing.B) *Classifier {
	serveOnce.Do(func() {
		const m, d = 1000, 64
		xa := randDense(m, d, 5, 1)
		ya := make([]float64, m)
		for i := range ya {
			ya[i] = 1
			if xa.At(i, 0)+xa.At(i, 1)+xa.At(i, 2) < 0 {
				ya[i] = -1
			}
		}
		res, err := passgp.Train(context.Background(), xa, ya, &passgp.Options{Method: passgp.Full, FixedTheta: true,
			Kernel: kernel.SE{Var: 4, Len2: 16, Jitter: 1e-2}})
		if err != nil {
			b.Fatal(err)
		}
		serveClf = NewClassifier(&model.Model{Mode: model.Binary, Classes: []float64{-1, 1}, Binaries: []*passgp.Binary{res.Model}})
	})
	return serveClf
}

// BenchmarkPredictParallel is a service predicting 256-row blocks from g
// goroutines that share one Classifier (|A| = 1000, d = 64) under the
// process's BLAS setting (OpenBLAS: one thread per core unless the
// environment says otherwise). One op is one block per goroutine;
// points/s is the throughput of all of them. turns=off is the prediction
// without the turns (concurrent multi-threaded BLAS calls).
func BenchmarkPredictParallel(b *testing.B) {
	const rows, d = 256, 64
	defer func(v bool) { serveTurns = v }(serveTurns)
	for _, turns := range []bool{true, false} {
		for _, g := range []int{1, 2, 4} {
			name := "turns=on"
			if !turns {
				name = "turns=off"
			}
			b.Run(name+"/goroutines="+strconv.Itoa(g), func(b *testing.B) {
				clf := serveClassifier(b)
				serveTurns = turns
				xs := make([]*mat.Dense, g)
				out := make([]*mat.Dense, g)
				for i := range xs {
					xs[i] = randDense(rows, d, uint64(10+i), 1)
					out[i] = mat.NewDense(rows, 2, nil)
				}
				start := time.Now()
				b.ResetTimer()
				for range b.N {
					var wg sync.WaitGroup
					for i := range g {
						wg.Go(func() { _ = clf.PredictProbaTo(context.Background(), out[i], xs[i]) })
					}
					wg.Wait()
				}
				b.ReportMetric(float64(b.N*g*rows)/time.Since(start).Seconds(), "points/s")
			})
		}
	}
}
