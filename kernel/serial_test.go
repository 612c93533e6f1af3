package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSerialCross: SerialCrossTo agrees with CrossTo for every kernel of
// the package at odd sizes. The two may use different formulations
// (direct tiles against DGEMM), whose distances differ by up to
// 4(d+2)ε(|a|²+|b|²) (la's Gram bounds); with inputs in [-1, 1], d ≤ 70
// and length scales ≥ 1 that is below 1e-12 relative to the kernel's
// largest value, the tolerance used.
func TestSerialCross(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, d := range []int{1, 7, 64, 70} {
		ard := make([]float64, d+2)
		ard[0] = 1.3
		for j := 1; j <= d; j++ {
			ard[j] = 0.5*float64(d) + rng.Float64()
		}
		ard[d+1] = 1e-3
		ks := []Kernel{
			SE{Var: 2, Len2: float64(d), Jitter: 1e-3},
			SEBias{SE: SE{Var: 2, Len2: float64(d), Jitter: 1e-3}, Bias: 0.3},
			SELin{SE: SE{Var: 2, Len2: float64(d), Jitter: 1e-3}, Lin: 0.2},
			Poly{Var: 1.5, Degree: 3, Jitter: 1e-3},
		}
		if k, err := New("seard", ard, 0, 0); err == nil {
			ks = append(ks, k)
		} else {
			t.Fatal(err)
		}
		if k, err := New("seard+bias", append(append([]float64(nil), ard...), 0.4), 0, 0); err == nil {
			ks = append(ks, k)
		} else {
			t.Fatal(err)
		}
		for _, n := range [][2]int{{1, 1}, {7, 129}, {64, 17}, {129, 64}} {
			x1, x2 := randInputs(n[0], d, rng), randInputs(n[1], d, rng)
			for _, k := range ks {
				want, got := mat.NewDense(n[0], n[1], nil), mat.NewDense(n[0], n[1], nil)
				k.CrossTo(want, x1, x2)
				SerialCrossTo(k, got, x1, x2)
				tol := 1e-12 * mat.Max(want)
				for i := range n[0] {
					for j := range n[1] {
						if g, w := got.At(i, j), want.At(i, j); !(math.Abs(g-w) <= tol) {
							t.Fatalf("%s d=%d %v: K[%d,%d] = %v, want %v (tol %.3g)", k.Name(), d, n, i, j, g, w, tol)
						}
					}
				}
			}
		}
	}
}

func randInputs(n, d int, rng *rand.Rand) *mat.Dense {
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, 2*rng.Float64()-1)
		}
	}
	return x
}
