package kernel

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// crossKernels are all the kernels for d = 4 features.
func crossKernels() []Kernel { return append(slices.Clone(testKernels), ardKernels(4)...) }

// TestCrossGradTraceTo compares CrossGradTraceTo with central differences
// of Σ W∘K(x1, x2) in log θ_j, and DiagGradTraceTo with those of
// Σ w_i (k(x_i, x_i) + jitter).
func TestCrossGradTraceTo(t *testing.T) {
	const h = 1e-5
	for _, sz := range [][2]int{{1, 1}, {7, 3}, {5, 11}} {
		n1, n2 := sz[0], sz[1]
		x1, x2 := randDense(n1, 4, 6), randDense(n2, 4, 7)
		w := randDense(n1, n2, 8)
		wd := randDense(1, n1, 9).RawRowView(0)
		for _, k := range crossKernels() {
			np := len(k.Params())
			got, gotD := make([]float64, np), make([]float64, np)
			k.CrossGradTraceTo(got, w, x1, x2)
			k.DiagGradTraceTo(gotD, wd, x1)
			for j := 0; j < np; j++ {
				kp, km := scaledParams(k, j, math.Exp(h)), scaledParams(k, j, math.Exp(-h))
				cp, cm := mat.NewDense(n1, n2, nil), mat.NewDense(n1, n2, nil)
				kp.CrossTo(cp, x1, x2)
				km.CrossTo(cm, x1, x2)
				cp.Sub(cp, cm)
				want := dotElem(w, cp) / (2 * h)
				if math.Abs(got[j]-want) > 1e-7*math.Max(1, math.Abs(want)) {
					t.Errorf("%s %d×%d: CrossGradTraceTo[%d] = %v, finite difference %v", name(k), n1, n2, j, got[j], want)
				}
				dp, dm := make([]float64, n1), make([]float64, n1)
				kp.DiagTo(dp, x1)
				km.DiagTo(dm, x1)
				var wantD float64
				for i := range dp {
					wantD += wd[i] * (dp[i] + kp.DiagJitter() - dm[i] - km.DiagJitter()) / (2 * h)
				}
				if math.Abs(gotD[j]-wantD) > 1e-7*math.Max(1, math.Abs(wantD)) {
					t.Errorf("%s n=%d: DiagGradTraceTo[%d] = %v, finite difference %v", name(k), n1, j, gotD[j], wantD)
				}
			}
		}
	}
}

// TestCrossGradTraceToSquare checks that on x1 = x2 the cross contraction
// plus the jitter's (its only difference) is GradTraceTo.
func TestCrossGradTraceToSquare(t *testing.T) {
	const n = 9
	x := randDense(n, 4, 10)
	w := randDense(n, n, 11)
	ws := mat.NewDense(n, n, nil)
	ws.Add(w, w.T())
	for _, k := range crossKernels() {
		np := len(k.Params())
		got, want := make([]float64, np), make([]float64, np)
		k.CrossGradTraceTo(got, ws, x, x)
		k.GradTraceTo(want, ws, x)
		jit := slices.Index(k.ParamNames(), "t3")
		got[jit] += k.DiagJitter() * traceDiag(ws)
		for j := range got {
			if math.Abs(got[j]-want[j]) > 1e-11*math.Max(1, math.Abs(want[j])) {
				t.Errorf("%s: CrossGradTraceTo[%d] + jitter = %v, GradTraceTo %v", name(k), j, got[j], want[j])
			}
		}
	}
}
