package la

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
)

// cholFactor returns the Cholesky factor of a random well-conditioned n×n
// SPD matrix (stride n+pad, NaN above the diagonal and in the padding, which
// the solves must not read) and the matrix itself.
func cholFactor(t *testing.T, n, pad int, rng *rand.Rand) (l, a blas64.General) {
	t.Helper()
	a = spdMat(n, pad, 1, rng)
	l = cloneGeneral(a)
	if !cholRef(l) {
		t.Fatalf("n=%d: reference Cholesky failed", n)
	}
	return l, a
}

func randGeneral(r, c int, rng *rand.Rand) blas64.General {
	m := blas64.General{Rows: r, Cols: c, Stride: max(c, 1), Data: make([]float64, r*max(c, 1))}
	for i := range m.Data {
		m.Data[i] = 2*rng.Float64() - 1
	}
	return m
}

// refSolve solves L X = B (trans false) or Lᵀ X = B by forward or back
// substitution, column by column, and returns X.
func refSolve(l, b blas64.General, trans bool) blas64.General {
	n, m := b.Rows, b.Cols
	x := blas64.General{Rows: n, Cols: m, Stride: m, Data: make([]float64, n*m)}
	for c := 0; c < m; c++ {
		if !trans {
			for i := 0; i < n; i++ {
				v := b.Data[i*b.Stride+c]
				for j := 0; j < i; j++ {
					v -= l.Data[i*l.Stride+j] * x.Data[j*m+c]
				}
				x.Data[i*m+c] = v / l.Data[i*l.Stride+i]
			}
			continue
		}
		for i := n - 1; i >= 0; i-- {
			v := b.Data[i*b.Stride+c]
			for j := i + 1; j < n; j++ { // (Lᵀ)[i][j] = L[j][i]
				v -= l.Data[j*l.Stride+i] * x.Data[j*m+c]
			}
			x.Data[i*m+c] = v / l.Data[i*l.Stride+i]
		}
	}
	return x
}

func transpose(a blas64.General) blas64.General {
	t := blas64.General{Rows: a.Cols, Cols: a.Rows, Stride: max(a.Rows, 1), Data: make([]float64, a.Cols*max(a.Rows, 1))}
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < a.Cols; j++ {
			t.Data[j*t.Stride+i] = a.Data[i*a.Stride+j]
		}
	}
	return t
}

func maxDiff(a, b blas64.General) float64 {
	var m float64
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < a.Cols; j++ {
			d := math.Abs(a.Data[i*a.Stride+j] - b.Data[i*b.Stride+j])
			if math.IsNaN(d) {
				return math.Inf(1)
			}
			m = math.Max(m, d)
		}
	}
	return m
}

// forceSolver makes the solves take the recursive solver (on) or DTRSM
// (off) for any number of right-hand sides, and returns the restore.
func forceSolver(on bool) func() {
	l, r, o := triLeftMin, triRightMin, triOneMin
	if on {
		triLeftMin, triRightMin, triOneMin = 0, 0, 0
	} else {
		triLeftMin, triRightMin, triOneMin = 1<<62, 1<<62, 1<<62
	}
	return func() { triLeftMin, triRightMin, triOneMin = l, r, o }
}

func TestSolves(t *testing.T) {
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprintf("solver=%v", on), func(t *testing.T) {
			defer forceSolver(on)()
			testSolves(t)
		})
	}
}

func testSolves(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range triSizes {
		l, _ := cholFactor(t, n, 2, rng)
		for _, m := range []int{1, 5, 70} {
			b := randGeneral(n, m, rng)
			wantN := refSolve(l, b, false)
			wantT := refSolve(l, b, true)
			tol := 1e-13 * float64(n+10)
			for _, tc := range []struct {
				name  string
				f     func(dst, l, b blas64.General)
				want  blas64.General
				right bool
			}{
				{"SolveLowerTo", SolveLowerTo, wantN, false},
				{"SolveLowerTransTo", SolveLowerTransTo, wantT, false},
				{"SolveLowerTransRightTo", SolveLowerTransRightTo, transpose(wantN), true},
				{"CholSolveTo", CholSolveTo, refSolve(l, wantN, true), false},
			} {
				in := cloneGeneral(b)
				if tc.right {
					in = transpose(b)
				}
				name := fmt.Sprintf("%s n=%d m=%d", tc.name, n, m)
				// Into a separate destination with a larger stride; b is
				// left unchanged.
				dst := blas64.General{Rows: in.Rows, Cols: in.Cols, Stride: in.Cols + 1, Data: make([]float64, in.Rows*(in.Cols+1))}
				keep := cloneGeneral(in)
				tc.f(dst, l, in)
				if d := maxDiff(dst, tc.want); d > tol {
					t.Errorf("%s: max error %g > %g", name, d, tol)
				}
				if maxDiff(in, keep) != 0 {
					t.Errorf("%s: input modified", name)
				}
				// In place.
				tc.f(in, l, in)
				if d := maxDiff(in, tc.want); d > tol {
					t.Errorf("%s in place: max error %g > %g", name, d, tol)
				}
			}
		}
	}
}

func TestSolvePanics(t *testing.T) {
	l := blas64.General{Rows: 3, Cols: 3, Stride: 3, Data: make([]float64, 9)}
	b := blas64.General{Rows: 4, Cols: 2, Stride: 2, Data: make([]float64, 8)}
	bt := blas64.General{Rows: 2, Cols: 4, Stride: 4, Data: make([]float64, 8)}
	for name, f := range map[string]func(){
		"rows":       func() { SolveLowerTo(b, l, b) },
		"dst shape":  func() { SolveLowerTransTo(bt, l, b) },
		"right cols": func() { SolveLowerTransRightTo(bt, l, bt) },
		"non-square": func() { CholSolveTo(b, b, b) },
		"inverse":    func() { CholInverseTo(b, l) },
		"from W":     func() { InverseFromInvTo(b, l) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestInverses(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range triSizes {
		if n > 300 {
			continue // the O(n³) Go references; 257 has three recursion levels
		}
		l, a := cholFactor(t, n, 1, rng)
		eye := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
		for i := 0; i < n; i++ {
			eye.Data[i*n+i] = 1
		}
		wantW := refSolve(l, eye, false)    // L⁻¹
		wantInv := refSolve(l, wantW, true) // L⁻ᵀL⁻¹
		tol := 1e-13 * float64(n+10)

		w := blas64.General{Rows: n, Cols: n, Stride: n + 2, Data: make([]float64, n*(n+2))}
		for i := range w.Data {
			w.Data[i] = math.NaN()
		}
		InvLowerTo(w, l)
		if d := maxDiff(w, wantW); d > tol { // includes the zeroed upper triangle
			t.Errorf("InvLowerTo n=%d: max error %g > %g", n, d, tol)
		}
		inv := blas64.General{Rows: n, Cols: n, Stride: n + 2, Data: make([]float64, n*(n+2))}
		for i := range inv.Data {
			inv.Data[i] = math.NaN()
		}
		CholInverseTo(inv, l)
		if d := maxDiff(inv, wantInv); d > tol {
			t.Errorf("CholInverseTo n=%d: max error %g > %g", n, d, tol)
		}
		// A A⁻¹ = I (A's lower triangle; it is symmetric).
		var worst float64
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				var v float64
				for k := 0; k < n; k++ {
					aik := a.Data[i*a.Stride+k]
					if k > i {
						aik = a.Data[k*a.Stride+i]
					}
					v += aik * inv.Data[k*inv.Stride+j]
				}
				if i == j {
					v--
				}
				worst = math.Max(worst, math.Abs(v))
			}
		}
		if worst > tol {
			t.Errorf("CholInverseTo n=%d: |A A⁻¹ - I|max = %g > %g", n, worst, tol)
		}
		// In place on a copy of the factor (NaN above the diagonal).
		lw := cloneGeneral(l)
		InvLowerTo(lw, lw)
		if d := maxDiff(lw, wantW); d > tol {
			t.Errorf("InvLowerTo in place n=%d: max error %g > %g", n, d, tol)
		}
		li := cloneGeneral(l)
		CholInverseTo(li, li)
		if d := maxDiff(li, wantInv); d > tol {
			t.Errorf("CholInverseTo in place n=%d: max error %g > %g", n, d, tol)
		}
		// InverseFromInvTo from W is CholInverseTo's second half, bit for
		// bit, into another matrix and in place.
		for _, inPlace := range []bool{false, true} {
			got := blas64.General{Rows: n, Cols: n, Stride: n + 3, Data: make([]float64, n*(n+3))}
			for i := range got.Data {
				got.Data[i] = math.NaN()
			}
			src := cloneGeneral(w)
			if inPlace {
				got = src
			}
			InverseFromInvTo(got, src)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if g, c := got.Data[i*got.Stride+j], inv.Data[i*inv.Stride+j]; math.Float64bits(g) != math.Float64bits(c) {
						t.Fatalf("InverseFromInvTo n=%d (in place %v): element (%d, %d) = %v, CholInverseTo %v", n, inPlace, i, j, g, c)
					}
				}
			}
		}
	}
}

func TestSymmetrizeLower(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{0, 1, 5, 64, 65, 130} {
		a := randGeneral(n, n, rng)
		a.Stride = max(n, 1)
		orig := cloneGeneral(a)
		SymmetrizeLower(a)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want := orig.Data[i*a.Stride+j]
				if j > i {
					want = orig.Data[j*a.Stride+i]
				}
				if a.Data[i*a.Stride+j] != want {
					t.Fatalf("n=%d: (%d,%d) = %v, want %v", n, i, j, a.Data[i*a.Stride+j], want)
				}
			}
		}
	}
}

// TestSolveNoAlloc checks that the DGEMM paths reuse their pooled
// workspace.
func TestSolveNoAlloc(t *testing.T) {
	if Backend != "openblas" {
		t.Skip("gonum's pure-Go DGEMM allocates its own goroutine workspace")
	}
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop workspaces at random")
	}
	defer forceSolver(true)()
	rng := rand.New(rand.NewPCG(17, 18))
	l, _ := cholFactor(t, 200, 0, rng)
	b := randGeneral(200, 100, rng)
	inv := blas64.General{Rows: 200, Cols: 200, Stride: 200, Data: make([]float64, 200*200)}
	for name, f := range map[string]func(){
		"SolveLowerTo":  func() { SolveLowerTo(b, l, b) },
		"CholSolveTo":   func() { CholSolveTo(b, l, b) },
		"CholInverseTo": func() { CholInverseTo(inv, l) },
	} {
		f()
		if allocs := testing.AllocsPerRun(5, f); allocs > 1 {
			t.Errorf("%s allocates %v times per call", name, allocs)
		}
	}
}

func TestSyrk(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, c := range []struct{ n, k int }{{1, 1}, {7, 3}, {65, 130}, {130, 1}} {
		a := randGeneral(c.n, c.k, rng)
		at := transpose(a)
		c0 := randGeneral(c.n, c.n, rng)
		SymmetrizeLower(c0)
		for _, tc := range []struct {
			name string
			f    func(dst blas64.General, alpha float64, a blas64.General, beta float64)
			in   blas64.General
		}{{"SyrkTo", SyrkTo, a}, {"SyrkTransTo", SyrkTransTo, at}} {
			got := cloneGeneral(c0)
			tc.f(got, -0.5, tc.in, 2)
			for i := 0; i < c.n; i++ {
				for j := 0; j < c.n; j++ {
					want := 2 * c0.Data[i*c.n+j]
					for p := 0; p < c.k; p++ {
						want -= 0.5 * a.Data[i*a.Stride+p] * a.Data[j*a.Stride+p]
					}
					if d := math.Abs(got.Data[i*c.n+j] - want); d > 1e-13*float64(c.k+1) {
						t.Fatalf("%s n=%d k=%d: (%d,%d) off by %g", tc.name, c.n, c.k, i, j, d)
					}
				}
			}
		}
	}
}
