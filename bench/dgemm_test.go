package bench

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// BenchmarkDGEMM is the machine's reference rate, on GOMAXPROCS threads
// (see UseProcs), by wall clock and per CPU second (cpu-GFLOP/s, which a
// busy machine disturbs less; see dgemmCPURate).
func BenchmarkDGEMM(b *testing.B) {
	for _, n := range []int{2000} {
		b.Run("n="+itoa(n), func(b *testing.B) {
			UseProcs(b)
			a, x, c := RandGeneral(n, n, 1), RandGeneral(n, n, 2), RandGeneral(n, n, 3)
			DGEMMRate()
			dgemmCPURate()
			b.ResetTimer()
			cpu := cpuSeconds()
			for b.Loop() {
				blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, x, 0, c)
			}
			cpu = cpuSeconds() - cpu
			ReportFLOPs(b, 2*float64(n)*float64(n)*float64(n))
			reportCPUFLOPs(b, 2*float64(n)*float64(n)*float64(n), cpu)
		})
	}
}
