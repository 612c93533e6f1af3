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

// ToyOrigin returns Toy(30, 42) followed by six points at the origin
// with alternating labels: under a linear kernel without jitter their
// latents have zero prior variance (the IVM site guards' task).
func ToyOrigin() (*mat.Dense, []float64) {
	xs, ys := Toy(30, 42)
	x := mat.NewDense(36, 2, nil)
	y := make([]float64, 36)
	for i := range 30 {
		x.SetRow(i, xs.RawRowView(i))
		y[i] = ys[i]
	}
	for i := 30; i < 36; i++ {
		y[i] = float64(2*(i%2) - 1) // x_i = 0
	}
	return x, y
}
