package score

import (
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
)

func toyKernel() kernel.Kernel { return kernel.SE{Var: 2, Len2: 0.5, Jitter: 1e-4} }

// denseRows is the rows of a matrix in memory.
type denseRows struct{ x *mat.Dense }

func (r denseRows) Dims() (n, d int) { return r.x.Dims() }
func (denseRows) Err() error         { return nil }

func (r denseRows) RowsTo(dst []float64, idx []int) {
	_, d := r.x.Dims()
	for k, i := range idx {
		copy(dst[k*d:(k+1)*d], r.x.RawRowView(i))
	}
}

// withBLASThreads runs f with BLAS limited to n threads.
func withBLASThreads(n int, f func()) {
	defer la.LimitBLAS(n)()
	f()
}
