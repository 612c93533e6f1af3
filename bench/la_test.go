package bench

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/passgp-fast/passgp-fast/la"
)

// randSPD returns a well-conditioned n×n SPD matrix B = I + G Gᵀ/n, the
// shape of EP's B = I + S^½ K S^½.
func randSPD(n int, seed uint64) blas64.General {
	g := RandGeneral(n, n, seed)
	b := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1/float64(n), g, g, 0, b)
	for i := 0; i < n; i++ {
		b.Data[i*n+i]++
	}
	return b
}

// randChol returns the Cholesky factor of randSPD(n, seed).
func randChol(b *testing.B, n int, seed uint64) blas64.General {
	l := randSPD(n, seed)
	if !la.Cholesky(l) {
		b.Fatal("not positive definite")
	}
	return l
}

// benchInPlace times f, which overwrites w, restoring w from src before
// every call outside the timed region, and reports flops per call as
// GFLOP/s and frac_dgemm (wall clock) and as cpu-GFLOP/s and cpu_frac_dgemm
// (process CPU time, see reportCPUFLOPs), which stay meaningful on a busy
// machine when run with -cpu 1. BLAS uses GOMAXPROCS threads (UseProcs:
// one -cpu value per process).
func benchInPlace(b *testing.B, w, src blas64.General, flops float64, f func()) {
	UseProcs(b)
	DGEMMRate()
	dgemmCPURate()
	var cpu float64
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		copy(w.Data, src.Data)
		b.StartTimer()
		c := cpuSeconds()
		f()
		cpu += cpuSeconds() - c
	}
	ReportFLOPs(b, flops)
	reportCPUFLOPs(b, flops, cpu)
}

// BenchmarkCholesky times la.Cholesky (n=N) and, for comparison, LAPACK's
// dpotrf through lapack64.Potrf (potrf/n=N), both counting n³/3 FLOPs.
func BenchmarkCholesky(b *testing.B) {
	for _, impl := range []string{"", "potrf/"} {
		for _, n := range []int{1000, 2000, 4000} {
			b.Run(impl+"n="+itoa(n), func(b *testing.B) {
				a := randSPD(n, 1)
				w := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
				ok := true
				f := func() { ok = la.Cholesky(w) }
				if impl != "" {
					f = func() {
						_, ok = lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: w.Data})
					}
				}
				benchInPlace(b, w, a, float64(n)*float64(n)*float64(n)/3, f)
				if !ok {
					b.Fatal("not positive definite")
				}
			})
		}
	}
}

// BenchmarkTrsm times triangular solves with n right-hand sides, n³ FLOPs:
// la.SolveLowerTo (L X = B, EP's V = L⁻¹ S^½ K), la.SolveLowerTransRightTo
// (X Lᵀ = B, one test point per row) and OpenBLAS's DTRSM for the first
// (dtrsm/).
func BenchmarkTrsm(b *testing.B) {
	const n = 2000
	for _, impl := range []string{"", "right/", "dtrsm/"} {
		b.Run(impl+"n="+itoa(n), func(b *testing.B) {
			l := randChol(b, n, 1)
			rhs := RandGeneral(n, n, 2)
			w := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
			f := func() { la.SolveLowerTo(w, l, w) }
			switch impl {
			case "right/":
				f = func() { la.SolveLowerTransRightTo(w, l, w) }
			case "dtrsm/":
				tri := blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: n, Stride: n, Data: l.Data}
				f = func() { blas64.Trsm(blas.Left, blas.NoTrans, 1, tri, w) }
			}
			benchInPlace(b, w, rhs, float64(n)*float64(n)*float64(n), f)
		})
	}
}

// BenchmarkCholInverse times la.CholInverseTo, the inverse of A from its
// Cholesky factor (2n³/3 FLOPs), against LAPACK's dpotri (potri/), and
// la.InverseFromInvTo, its second half from W = L⁻¹ (fromW/, n³/3 FLOPs:
// EP's evidence gradient after a refresh that computed W).
func BenchmarkCholInverse(b *testing.B) {
	const n = 2000
	for _, impl := range []string{"", "potri/", "fromW/"} {
		b.Run(impl+"n="+itoa(n), func(b *testing.B) {
			l := randChol(b, n, 1)
			w := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
			flops := 2 * float64(n) * float64(n) * float64(n) / 3
			f := func() { la.CholInverseTo(w, w) }
			switch impl {
			case "potri/":
				f = func() {
					lapack64.Potri(blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: n, Stride: n, Data: w.Data})
					la.SymmetrizeLower(w)
				}
			case "fromW/":
				la.InvLowerTo(l, l)
				flops /= 2
				f = func() { la.InverseFromInvTo(w, w) }
			}
			benchInPlace(b, w, l, flops, f)
		})
	}
}
