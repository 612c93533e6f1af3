// Package bench holds the benchmarks of every stage of passgp-fast (Gram
// blocks, Cholesky, EP sweeps, scoring, full PASS-GP runs) and the helpers
// they share. Run them with
//
//	go test -run '^$' -bench . ./bench
//
// Each benchmark with a meaningful FLOP count reports GFLOP/s and, as
// frac_dgemm, its rate as a fraction of the machine's DGEMM rate measured
// in the same process (BenchmarkDGEMM/n=2000's workload).
package bench

import (
	"math/rand/v2"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	_ "github.com/passgp-fast/passgp-fast/la" // registers the BLAS backend
)

var (
	dgemmOnce sync.Once
	dgemmRate float64
)

// DGEMMRate returns the DGEMM rate in GFLOP/s for n = 2000 (2n³ FLOPs per
// call), the median of five calls, measured once per process.
func DGEMMRate() float64 {
	dgemmOnce.Do(func() {
		const n = 2000
		a, b, c := RandGeneral(n, n, 1), RandGeneral(n, n, 2), RandGeneral(n, n, 3)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, c) // warm up
		var rates []float64
		for i := 0; i < 5; i++ {
			t := time.Now()
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, c)
			rates = append(rates, 2*n*n*n/time.Since(t).Seconds()/1e9)
		}
		sort.Float64s(rates)
		dgemmRate = rates[len(rates)/2]
	})
	return dgemmRate
}

// ReportFLOPs reports GFLOP/s for flopsPerOp floating-point operations per
// benchmark iteration, and that rate as a fraction of DGEMMRate.
func ReportFLOPs(b *testing.B, flopsPerOp float64) {
	b.Helper()
	sec := b.Elapsed().Seconds()
	if sec <= 0 || b.N == 0 {
		return
	}
	g := flopsPerOp * float64(b.N) / sec / 1e9
	b.ReportMetric(g, "GFLOP/s")
	if r := DGEMMRate(); r > 0 {
		b.ReportMetric(g/r, "frac_dgemm")
	}
}

// RandGeneral returns an r×c matrix of uniform values in [-1, 1) from a
// fixed seed.
func RandGeneral(r, c int, seed uint64) blas64.General {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	m := blas64.General{Rows: r, Cols: c, Stride: c, Data: make([]float64, r*c)}
	for i := range m.Data {
		m.Data[i] = 2*rng.Float64() - 1
	}
	return m
}

func itoa(n int) string { return strconv.Itoa(n) }
