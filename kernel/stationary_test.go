package kernel

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestStationary: the stationary part of each kernel, its variance and the
// constant; k(x, x') = s(x, x') + constant off the diagonal, and kernels
// that grow with the inputs have none.
func TestStationary(t *testing.T) {
	se := SE{Var: 2, Len2: 3, Jitter: 1e-4}
	ard := SEARD{Var: 1.5, Len2: []float64{1, 4}, Jitter: 1e-4}
	x := mat.NewDense(3, 2, []float64{0, 0, 1, -1, 3, 2})
	for _, tc := range []struct {
		k        Kernel
		ok       bool
		variance float64
		constant float64
	}{
		{se, true, 2, 0},
		{SEBias{SE: se, Bias: 0.7}, true, 2, 0.7},
		{ard, true, 1.5, 0},
		{SEARDBias{SEARD: ard, Bias: 5}, true, 1.5, 5},
		{SELin{SE: se, Lin: 1}, false, 0, 0},
		{Poly{Var: 1, Jitter: 1e-4, Degree: 2}, false, 0, 0},
	} {
		s, v, c, ok := Stationary(tc.k)
		if ok != tc.ok || v != tc.variance || c != tc.constant {
			t.Errorf("%s: ok %v, variance %v, constant %v; want %v, %v, %v", tc.k.Name(), ok, v, c, tc.ok, tc.variance, tc.constant)
			continue
		}
		if !ok {
			continue
		}
		full, part := mat.NewDense(3, 3, nil), mat.NewDense(3, 3, nil)
		tc.k.CrossTo(full, x, x)
		s.CrossTo(part, x, x)
		for i := range 3 {
			for j := range 3 {
				if d := full.At(i, j) - part.At(i, j) - c; d > 1e-14 || d < -1e-14 {
					t.Errorf("%s: k(%d, %d) = %v, stationary part %v + constant %v", tc.k.Name(), i, j, full.At(i, j), part.At(i, j), c)
				}
			}
			if part.At(i, i) != v {
				t.Errorf("%s: stationary part's variance %v at %d, want %v", tc.k.Name(), part.At(i, i), i, v)
			}
		}
	}
}
