package score

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
)

// toy returns n points in 2-D with labels y = sign(sin(2 x1) + x2 + noise),
// a smooth non-linear boundary with some label noise.
func toy(n int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		a, b := 3*rng.Float64()-1.5, 3*rng.Float64()-1.5
		x.Set(i, 0, a)
		x.Set(i, 1, b)
		y[i] = 1
		if math.Sin(2*a)+b+0.3*rng.NormFloat64() < 0 {
			y[i] = -1
		}
	}
	return x, y
}

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
