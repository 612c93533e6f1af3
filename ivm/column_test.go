package ivm

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// column's fast SE / SE+lin path and its CrossTo fallback match
// Kernel.CrossTo column by column.
func TestColumn(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d = 37, 19
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, 2*rng.Float64()-1)
		}
	}
	se := kernel.SE{Var: 3, Len2: 2.5, Jitter: 0.01}
	for _, k := range []kernel.Kernel{
		se,
		kernel.SELin{SE: se, Lin: 0.2},
		kernel.Poly{Var: 1, Jitter: 0.01, Degree: 3},
	} {
		kc := newColumn(k, x)
		want := mat.NewDense(n, n, nil)
		k.CrossTo(want, x, x)
		got := make([]float64, n)
		for j := 0; j < n; j++ {
			kc.columnTo(got, j)
			for i := 0; i < n; i++ {
				w := want.At(i, j)
				if math.Abs(got[i]-w) > 1e-12*math.Max(1, math.Abs(w)) {
					t.Fatalf("%s: K[%d,%d] = %v, want %v", k.Name(), i, j, got[i], w)
				}
			}
		}
	}
}
