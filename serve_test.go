package passgpfast

import (
	"context"
	"math"
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
// three-class Classifier, with and without the turns, and with its
// serving view, get exactly what a serial call of the same policy gets
// (one code path run twice: bit equality), also under -race. The serving
// view's results agree with the default's within servingTol.
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
	srv := clf.Serving()
	if clf.IsServing() || !srv.IsServing() {
		t.Fatal("Serving changed the classifier or returned a non-serving view")
	}
	wantSrv, err := srv.Predict(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "Prob", wantSrv.Prob, want.Prob)
	checkClose(t, "Z", wantSrv.Z, want.Z)
	checkClose(t, "CRho", wantSrv.CRho, want.CRho)
	defer func(v bool) { serveTurns = v }(serveTurns)
	for _, mode := range []string{"turns", "no turns", "serving"} {
		serveTurns = mode == "turns"
		c, w := clf, want
		if mode == "serving" {
			c, w = srv, wantSrv
		}
		var wg sync.WaitGroup
		errs := make([]string, 8)
		for g := range 8 {
			wg.Go(func() {
				for range 3 {
					p, err := c.Predict(context.Background(), x)
					switch {
					case err != nil:
						errs[g] = err.Error()
					case !mat.Equal(p.Prob, w.Prob) || !mat.Equal(p.Z, w.Z) || !mat.Equal(p.CRho, w.CRho):
						errs[g] = "predictions differ from the serial call's"
					}
				}
			})
		}
		wg.Wait()
		for g, e := range errs {
			if e != "" {
				t.Errorf("%s, goroutine %d: %s", mode, g, e)
			}
		}
	}
}

// servingTol bounds the difference between the serving view's and the
// default's outputs (probabilities, latents, shares): the two sum in
// different orders, and the variance's triangular solve carries an error
// of order |A|·ε·κ(B), below 1e-11 for these models; 1e-9 leaves room
// for the calibration's maps.
const servingTol = 1e-9

func checkClose(t *testing.T, name string, got, want *mat.Dense) {
	t.Helper()
	if !mat.EqualApprox(got, want, servingTol) {
		t.Errorf("serving %s differs from the default's by more than %g", name, servingTol)
	}
}

// TestServingMethods: the serving view's RawTo, LatentMeanVarTo and
// DecideTo agree with the default's (servingTol; decisions equal where
// the top two probabilities are apart by more than that).
func TestServingMethods(t *testing.T) {
	ds, err := synth.Dataset(synth.Task{Classes: 2, D: 3}, 150, 6)
	if err != nil {
		t.Fatal(err)
	}
	clf, err := FitDataset(context.Background(), ds, WithSeed(3), WithThreads(1), WithSchedule(20, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	srv := clf.Serving()
	x := randDense(90, 3, 7, 2)
	k := len(clf.Model().Binaries)
	r1, r2 := mat.NewDense(90, k, nil), mat.NewDense(90, k, nil)
	clf.RawTo(r1, x)
	srv.RawTo(r2, x)
	checkClose(t, "RawTo", r2, r1)
	m1, v1, m2, v2 := mat.NewDense(90, k, nil), mat.NewDense(90, k, nil), mat.NewDense(90, k, nil), mat.NewDense(90, k, nil)
	clf.LatentMeanVarTo(m1, v1, x)
	srv.LatentMeanVarTo(m2, v2, x)
	checkClose(t, "mean", m2, m1)
	checkClose(t, "variance", v2, v1)
	p1, err := clf.Predict(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	d2 := make([]int, 90)
	if err := srv.DecideTo(context.Background(), d2, x); err != nil {
		t.Fatal(err)
	}
	for i, d := range p1.Decision {
		row := p1.Prob.RawRowView(i)
		if d != d2[i] && math.Abs(row[0]-row[len(row)-1]) > servingTol {
			t.Errorf("row %d: decision %d, serving %d", i, d, d2[i])
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
// environment says otherwise). Each goroutine predicts its own block b.N
// times, as independent requests would (no barrier between them); one op
// is one block per goroutine, and points/s is the throughput of all of
// them. mode=default is the
// Classifier itself (its calls take turns at their multi-threaded BLAS
// work), mode=noturns the same without the turns (concurrent
// multi-threaded BLAS calls), mode=serving its serving view (each call
// on its own goroutine's core, no BLAS). cpu-µs/point is the process's
// CPU time (user + system, getrusage) per point: on a shared machine it
// tells what a prediction costs apart from the cores it got (OpenBLAS's
// idle threads spin for a while after each call, which counts too).
func BenchmarkPredictParallel(b *testing.B) {
	const rows, d = 256, 64
	defer func(v bool) { serveTurns = v }(serveTurns)
	for _, mode := range []string{"default", "noturns", "serving"} {
		for _, g := range []int{1, 2, 4} {
			b.Run("mode="+mode+"/goroutines="+strconv.Itoa(g), func(b *testing.B) {
				clf := serveClassifier(b)
				serveTurns = mode != "noturns"
				if mode == "serving" {
					clf = clf.Serving()
				}
				xs := make([]*mat.Dense, g)
				out := make([]*mat.Dense, g)
				for i := range xs {
					xs[i] = randDense(rows, d, uint64(10+i), 1)
					out[i] = mat.NewDense(rows, 2, nil)
				}
				cpu0, cpuOK := processCPU()
				start := time.Now()
				b.ResetTimer()
				var wg sync.WaitGroup
				for i := range g {
					wg.Go(func() {
						for range b.N {
							_ = clf.PredictProbaTo(context.Background(), out[i], xs[i])
						}
					})
				}
				wg.Wait()
				pts := float64(b.N * g * rows)
				b.ReportMetric(pts/time.Since(start).Seconds(), "points/s")
				if cpu1, ok := processCPU(); ok && cpuOK {
					b.ReportMetric(float64(cpu1-cpu0)/1e3/pts, "cpu-µs/point")
				}
			})
		}
	}
}
