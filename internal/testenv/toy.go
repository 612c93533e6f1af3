package testenv

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Toy returns n points in 2-D, uniform on [-1.5, 1.5]², with labels
// y = sign(sin(2 x1) + x2 + noise): a smooth non-linear boundary with some
// label noise, the same points for the same seed. It is the small binary
// task of the passgp, score and bench/repro tests.
func Toy(n int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range n {
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
