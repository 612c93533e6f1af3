// Package bench holds the benchmarks of every stage of passgp-fast (Gram
// blocks, Cholesky, EP sweeps, scoring, full PASS-GP runs) and the helpers
// they share. Run them with
//
//	go test -run '^$' -bench . ./bench
//
// Each benchmark with a meaningful FLOP count reports GFLOP/s and, as
// frac_dgemm, its rate as a fraction of the machine's DGEMM rate measured
// in the same process (BenchmarkDGEMM/n=2000's workload). TestMain first
// restarts the test binary on the OpenBLAS kernels of the CPU's
// instruction set where OpenBLAS picked older ones (la/blasinit,
// docs/blas.md), so that the benchmarks measure the machine.
package bench

import (
	"math/rand/v2"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/passgp-fast/passgp-fast/la"
)

var (
	dgemmMu    sync.Mutex
	dgemmRates = map[int]float64{} // by BLAS thread count
)

// DGEMMRate returns the DGEMM rate in GFLOP/s for n = 2000 (2n³ FLOPs per
// call), the median of five calls, measured once per process and BLAS
// thread count (so that frac_dgemm on one thread compares with DGEMM on
// one thread).
func DGEMMRate() float64 {
	dgemmMu.Lock()
	defer dgemmMu.Unlock()
	threads := la.BLASThreads()
	if r, ok := dgemmRates[threads]; ok {
		return r
	}
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
	dgemmRates[threads] = rates[len(rates)/2]
	return dgemmRates[threads]
}

// UseProcs makes the module's thread budget and the BLAS library's thread
// count follow GOMAXPROCS for the rest of the benchmark, and restores both
// afterwards: go test -cpu 1 (or GOMAXPROCS=1) then measures one core.
// Both counts are checked, since the BLAS library's can differ from the
// budget (OPENBLAS_NUM_THREADS, la.SetBLASThreads).
//
// Give one thread count per process: with a list (-cpu 1,2) the testing
// package measures the first value of every benchmark written with b.Loop
// at GOMAXPROCS of the list's last value (golang/go#49980: the first run,
// in which b.Loop does all its iterations, comes before GOMAXPROCS is set).
func UseProcs(b *testing.B) {
	p := runtime.GOMAXPROCS(0)
	if p == la.Threads() && p == la.BLASThreads() {
		return
	}
	old, oldBLAS := la.Threads(), la.BLASThreads()
	la.SetThreads(p)
	b.Cleanup(func() {
		la.SetThreads(old)
		la.SetBLASThreads(oldBLAS)
	})
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
