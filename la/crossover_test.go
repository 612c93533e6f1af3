package la

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
)

// BenchmarkSolveCrossover times X Lᵀ = B (m rows of B) and L X = B (m
// columns) by DTRSM and by the DGEMM-based solver, at the process's BLAS
// thread count: the measurements behind triLeftMin, triRightMin and
// triOneMin (an active set of n points, m scored points).
func BenchmarkSolveCrossover(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range [][2]int{{100, 64}, {100, 256}, {300, 64}, {300, 128}, {300, 256}, {300, 540}, {600, 128}, {600, 256}, {2000, 128}, {2000, 256}} {
		n, m := sh[0], sh[1]
		l := lowerOnly(wellCond(n, rng))
		right, left := randMat(m, n, 0, rng), randMat(n, m, 0, rng)
		xr := blas64.General{Rows: m, Cols: n, Stride: n, Data: make([]float64, m*n)}
		xl := blas64.General{Rows: n, Cols: m, Stride: m, Data: make([]float64, m*n)}
		for _, side := range []string{"right", "left"} {
			for _, path := range []string{"trsm", "solver"} {
				b.Run(fmt.Sprintf("%s/n=%d/m=%d/%s", side, n, m, path), func(b *testing.B) {
					defer forceSolver(path == "solver")()
					for range b.N {
						if side == "right" {
							SolveLowerTransRightTo(xr, l, right)
						} else {
							SolveLowerTo(xl, l, left)
						}
					}
					b.ReportMetric(float64(n)*float64(n)*float64(m)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
				})
			}
		}
	}
}
