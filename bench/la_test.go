package bench

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/passgp-fast/passgp-fast/la"
)

// randSPD returns a well-conditioned n×n SPD matrix B = I + G Gᵀ/n, the
// shape of EP's B = I + S^1/2 K S^1/2.
func randSPD(n int, seed uint64) blas64.General {
	g := RandGeneral(n, n, seed)
	b := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1/float64(n), g, g, 0, b)
	for i := 0; i < n; i++ {
		b.Data[i*n+i]++
	}
	return b
}

// BenchmarkCholesky times la.Cholesky (impl=la) against lapack64.Potrf
// (impl=potrf) on the same matrix; both count n³/3 FLOPs. The copy of the
// input into the work matrix is excluded from the timing.
func BenchmarkCholesky(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		a := randSPD(n, 1)
		w := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
		impls := []struct {
			name string
			f    func() bool
		}{
			{"la", func() bool { return la.Cholesky(w) }},
			{"potrf", func() bool {
				_, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: w.Data})
				return ok
			}},
		}
		for _, im := range impls {
			b.Run("n="+itoa(n)+"/impl="+im.name, func(b *testing.B) {
				DGEMMRate()
				b.ResetTimer()
				for b.Loop() {
					b.StopTimer()
					copy(w.Data, a.Data)
					b.StartTimer()
					if !im.f() {
						b.Fatal("not positive definite")
					}
				}
				ReportFLOPs(b, float64(n)*float64(n)*float64(n)/3)
			})
		}
	}
}
