package bench

import (
	"sort"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/passgp-fast/passgp-fast/la"
)

// gramShape is one Gram benchmark: a block of n×m kernel values from
// n×d and m×d inputs.
type gramShape struct {
	kind    string // "se", "poly9"
	n, m, d int
}

// runGram times one Gram block. The kernels and BLAS use GOMAXPROCS
// threads (UseProcs: one -cpu value per process).
func runGram(b *testing.B, s gramShape, sym bool) {
	UseProcs(b)
	x := RandGeneral(s.n, s.d, 11)
	y := RandGeneral(s.m, s.d, 12)
	if sym {
		y = x
	}
	dst := blas64.General{Rows: s.n, Cols: s.m, Stride: s.m, Data: make([]float64, s.n*s.m)}
	c := 1 / float64(s.d) // length scale² = d/2: kernel values well inside (0, 1]
	DGEMMRate()
	dgemmCPURate()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for b.Loop() {
		switch s.kind {
		case "se":
			la.GramSETo(dst, x, y, 1, c)
		case "poly9":
			la.GramPolyTo(dst, x, y, 1, 1/float64(s.d), 1, 9)
		}
	}
	// 2·n·m·d FLOPs: the inner products (or distances), as for DGEMM; the
	// elementwise pass is not counted. The symmetric case counts the full
	// square too, so its rate shows the saving.
	flops := 2 * float64(s.n) * float64(s.m) * float64(s.d)
	reportCPUFLOPs(b, flops, cpuSeconds()-cpu0)
	ReportFLOPs(b, flops)
}

var (
	dgemmCPUOnce sync.Once
	dgemmCPU     float64
)

// dgemmCPURate is DGEMM's rate per CPU second (n = 2000, median of three
// calls): DGEMMRate's workload timed by process CPU time instead of wall
// time. On a machine shared with other jobs the wall-clock rates swing by
// factors of several between runs; rates per CPU second are much steadier
// and their ratio is the efficiency the Gram kernels reach relative to
// DGEMM (it matches frac_dgemm on an idle machine when every thread stays
// busy).
func dgemmCPURate() float64 {
	dgemmCPUOnce.Do(func() {
		const n = 2000
		a, x, c := RandGeneral(n, n, 1), RandGeneral(n, n, 2), RandGeneral(n, n, 3)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, x, 0, c)
		var r []float64
		for i := 0; i < 3; i++ {
			t := cpuSeconds()
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, x, 0, c)
			if dt := cpuSeconds() - t; dt > 0 {
				r = append(r, 2*n*n*n/dt/1e9)
			}
		}
		if len(r) > 0 {
			sort.Float64s(r)
			dgemmCPU = r[len(r)/2]
		}
	})
	return dgemmCPU
}

// reportCPUFLOPs reports cpu-GFLOP/s (FLOPs per CPU second, all threads)
// and its fraction of dgemmCPURate as cpu_frac_dgemm.
func reportCPUFLOPs(b *testing.B, flopsPerOp, cpu float64) {
	if cpu <= 0 || b.N == 0 {
		return
	}
	g := flopsPerOp * float64(b.N) / cpu / 1e9
	b.ReportMetric(g, "cpu-GFLOP/s")
	if r := dgemmCPURate(); r > 0 {
		b.ReportMetric(g/r, "cpu_frac_dgemm")
	}
}

// BenchmarkGram times the Gram blocks the kernels compute in PASS-GP
// (1000 test rows against m = 2000 active points) with the automatic
// choice of formulation and the best SIMD path.
func BenchmarkGram(b *testing.B) {
	for _, s := range []gramShape{
		{"se", 1000, 2000, 22},
		{"se", 1000, 2000, 256},
		{"se", 1000, 2000, 784},
		{"poly9", 1000, 2000, 784},
	} {
		b.Run(s.kind+"/d="+itoa(s.d)+"/m="+itoa(s.m), func(b *testing.B) { runGram(b, s, false) })
	}
}

// BenchmarkGramMethod compares the direct tile kernel with the GEMM
// formulation for the SE cross block over d; the crossover sets
// la.DirectMaxD.
func BenchmarkGramMethod(b *testing.B) {
	for _, d := range []int{4, 8, 16, 22, 32, 48, 64, 128, 256, 784} {
		for _, m := range []struct {
			name string
			m    la.GramMethod
		}{{"direct", la.GramDirect}, {"gemm", la.GramGEMM}} {
			b.Run("se/d="+itoa(d)+"/m=2000/"+m.name, func(b *testing.B) {
				defer la.SetGramMethod(la.SetGramMethod(m.m))
				runGram(b, gramShape{"se", 1000, 2000, d}, false)
			})
		}
	}
}

// BenchmarkGramSIMD times each instruction set this CPU supports on the
// SE block (both formulations: direct at d = 22, GEMM at d = 784) and the
// polynomial one.
func BenchmarkGramSIMD(b *testing.B) {
	for _, s := range []gramShape{
		{"se", 1000, 2000, 22},
		{"se", 1000, 2000, 784},
		{"poly9", 1000, 2000, 784},
	} {
		for _, p := range la.SIMDPaths() {
			b.Run(s.kind+"/d="+itoa(s.d)+"/m=2000/"+p, func(b *testing.B) {
				defer la.SetSIMD(la.SetSIMD(p))
				runGram(b, s, false)
			})
		}
	}
}

// BenchmarkGramSym times K(X, X) for n = 2000 (EP's training covariance),
// with the automatic choice and each formulation (gemm: DSYRK and a
// transposing copy; direct: the full square for d <= 64, the upper tiles
// and a copy above). FLOPs are counted as for the full square.
func BenchmarkGramSym(b *testing.B) {
	for _, d := range []int{22, 64, 128, 256, 784} {
		for _, m := range []struct {
			name string
			m    la.GramMethod
		}{{"auto", la.GramAuto}, {"direct", la.GramDirect}, {"gemm", la.GramGEMM}} {
			b.Run("se/d="+itoa(d)+"/n=2000/"+m.name, func(b *testing.B) {
				defer la.SetGramMethod(la.SetGramMethod(m.m))
				runGram(b, gramShape{"se", 2000, 2000, d}, true)
			})
		}
	}
}
