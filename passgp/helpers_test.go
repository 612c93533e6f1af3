package passgp

import (
	"math"
	"math/rand/v2"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/internal/testenv"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// toy is testenv.Toy, the tests' small binary task.
func toy(n int, seed uint64) (*mat.Dense, []float64) { return testenv.Toy(n, seed) }

// blobs returns n points of c classes (labels 0..c-1) in 2-D.
func blobs(n, c int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 11))
	x := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		k := i % c
		ang := 2 * math.Pi * float64(k) / float64(c)
		x.Set(i, 0, 2*math.Cos(ang)+0.7*rng.NormFloat64())
		x.Set(i, 1, 2*math.Sin(ang)+0.7*rng.NormFloat64())
		y[i] = float64(k)
	}
	return x, y
}

func toyKernel() kernel.Kernel { return kernel.SE{Var: 2, Len2: 0.5, Jitter: 1e-4} }

func maxDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

func grid() *mat.Dense {
	var v []float64
	for i := -4; i <= 4; i++ {
		for j := -4; j <= 4; j++ {
			v = append(v, 0.4*float64(i), 0.4*float64(j))
		}
	}
	return mat.NewDense(len(v)/2, 2, v)
}

// cancelKernel wraps a kernel and calls cancel at its after-th training
// covariance (every EP run builds one): a cancellation that arrives in
// the middle of a method's work. WithParams keeps the wrapper and the
// shared count.
type cancelKernel struct {
	kernel.Kernel
	cancel func()
	after  int
	calls  *atomic.Int64
}

func (k cancelKernel) WithParams(theta []float64) kernel.Kernel {
	k.Kernel = k.Kernel.WithParams(theta)
	return k
}

func (k cancelKernel) TrainTo(dst, x *mat.Dense) {
	if k.calls.Add(1) >= int64(k.after) {
		k.cancel()
	}
	k.Kernel.TrainTo(dst, x)
}

// pathTol is the relative tolerance of tests that compare two code paths
// which reach the same value through differently shaped BLAS calls: a
// multi-threaded or differently blocked kernel sums in another order, so
// such paths agree to rounding, not to the bit.
const pathTol = 1e-9

// closeTo reports whether a and b agree to pathTol relative to their
// magnitude (absolute near zero).
func closeTo(a, b float64) bool {
	return math.Abs(a-b) <= pathTol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// allClose is closeTo for every element of two equally long slices.
func allClose(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !closeTo(a[i], b[i]) {
			return false
		}
	}
	return true
}
