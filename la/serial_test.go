package la

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/passgp-fast/passgp-fast/la/internal/asm"
)

// eachPath runs f on every SIMD path this CPU and build support (the
// generic path is the pure-Go tiles, the reference of the others).
func eachPath(t *testing.T, f func(t *testing.T)) {
	for _, p := range asm.Supported() {
		t.Run(p.String(), func(t *testing.T) {
			old := asm.SetPath(p)
			defer asm.SetPath(old)
			f(t)
		})
	}
}

// wellCond returns the lower Cholesky factor of A Aᵀ/n + I (A n×n with
// entries in [-1, 1]), stride n+3, upper triangle NaN (never read): its
// condition number is below √(1 + n/3), about 10 at n = 300.
func wellCond(n int, rng *rand.Rand) blas64.General {
	a := randMat(n, n, 0, rng)
	s := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
	gonum.Implementation{}.Dgemm(blas.NoTrans, blas.Trans, n, n, n, 1/float64(n), a.Data, a.Stride, a.Data, a.Stride, 0, s.Data, n)
	for i := range n {
		s.Data[i*n+i]++
	}
	// Unblocked Cholesky (the reference: no code under test).
	l := blas64.General{Rows: n, Cols: n, Stride: n + 3, Data: make([]float64, n*(n+3))}
	for i := range n {
		for j := range n {
			l.Data[i*l.Stride+j] = math.NaN()
		}
		for j := 0; j <= i; j++ {
			v := s.Data[i*n+j]
			for k := range j {
				v -= l.Data[i*l.Stride+k] * l.Data[j*l.Stride+k]
			}
			if i == j {
				l.Data[i*l.Stride+i] = math.Sqrt(v)
			} else {
				l.Data[i*l.Stride+j] = v / l.Data[j*l.Stride+j]
			}
		}
	}
	return l
}

// TestSerialSolveLowerTransRight compares the serial solve with gonum's
// native DTRSM (Right, Lower, Trans) at odd sizes, in place and into a
// distinct destination. Tolerance: per row, max|x − x_ref| ≤
// 8·n·ε·κ·max|x_ref|, the forward-error bound of a backward-stable
// substitution, with κ ≤ √(1 + n/3) for wellCond's factors.
func TestSerialSolveLowerTransRight(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 7))
		for _, n := range []int{1, 7, 16, 17, 64, 129, 300} {
			l := wellCond(n, rng)
			for _, m := range []int{1, 3, 4, 5, 33, 70} {
				b := randMat(m, n, 0, rng)
				want := blas64.General{Rows: m, Cols: n, Stride: n, Data: make([]float64, m*n)}
				for i := range m {
					copy(want.Data[i*n:(i+1)*n], b.Data[i*b.Stride:])
				}
				lnoNaN := lowerOnly(l)
				gonum.Implementation{}.Dtrsm(blas.Right, blas.Lower, blas.Trans, blas.NonUnit, m, n, 1, lnoNaN.Data, lnoNaN.Stride, want.Data, n)
				dst := newDst(m, n)
				SerialSolveLowerTransRightTo(dst, l, b)
				kappa := math.Sqrt(1 + float64(n)/3)
				checkRows(t, fmt.Sprintf("n=%d m=%d", n, m), dst, want, 8*float64(n)*eps*kappa)
				SerialSolveLowerTransRightTo(b, l, b)
				checkRows(t, fmt.Sprintf("n=%d m=%d in place", n, m), b, want, 8*float64(n)*eps*kappa)
			}
		}
	})
}

// lowerOnly returns l with its strict upper triangle zeroed (gonum's
// DTRSM does not read it either; the zeros keep NaN out of any doubt).
func lowerOnly(l blas64.General) blas64.General {
	c := blas64.General{Rows: l.Rows, Cols: l.Cols, Stride: l.Stride, Data: append([]float64(nil), l.Data...)}
	for i := range l.Rows {
		for j := i + 1; j < l.Cols; j++ {
			c.Data[i*c.Stride+j] = 0
		}
	}
	return c
}

func checkRows(t *testing.T, name string, got, want blas64.General, rel float64) {
	t.Helper()
	for i := range want.Rows {
		var scale, diff float64
		for j := range want.Cols {
			w, g := want.Data[i*want.Stride+j], got.Data[i*got.Stride+j]
			scale = max(scale, math.Abs(w))
			if d := math.Abs(g - w); d > diff || math.IsNaN(d) {
				diff = d
			}
		}
		if !(diff <= rel*scale) {
			t.Errorf("%s: row %d differs by %.3g, tolerance %.3g", name, i, diff, rel*scale)
			return
		}
	}
}

// TestSerialSolveRowIndependent: a row's result is the same, bit for bit,
// whether it is solved alone or with others (one code path): what makes
// serving results independent of how the rows are split between calls.
func TestSerialSolveRowIndependent(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(8, 8))
		n, m := 129, 37
		l := wellCond(n, rng)
		b := randMat(m, n, 0, rng)
		all := newDst(m, n)
		SerialSolveLowerTransRightTo(all, l, b)
		for _, i := range []int{0, 5, 36} {
			one := newDst(1, n)
			SerialSolveLowerTransRightTo(one, l, blas64.General{Rows: 1, Cols: n, Stride: b.Stride, Data: b.Data[i*b.Stride:]})
			for j := range n {
				if one.Data[j] != all.Data[i*all.Stride+j] {
					t.Fatalf("row %d column %d: %v alone, %v in the block", i, j, one.Data[j], all.Data[i*all.Stride+j])
				}
			}
		}
	})
}

// TestSerialMulVec compares SerialMulVecTo and SerialDot with gonum's
// native DGEMV; tolerance n·ε·Σ_j |a_ij x_j| per row (summation error).
func TestSerialMulVec(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{1, 3, 7, 64, 129} {
		for _, m := range []int{1, 5, 64} {
			a := randMat(m, n, 0.5, rng)
			x := randMat(1, n, 0, rng).Data[:n]
			want := make([]float64, m)
			gonum.Implementation{}.Dgemv(blas.NoTrans, m, n, 1, a.Data, a.Stride, x, 1, 0, want, 1)
			got := make([]float64, m)
			SerialMulVecTo(got, a, x)
			for i := range m {
				var abs float64
				for j := range n {
					abs += math.Abs(a.Data[i*a.Stride+j] * x[j])
				}
				if tol := float64(n) * eps * abs; math.Abs(got[i]-want[i]) > tol {
					t.Errorf("n=%d m=%d row %d: %v, want %v (tol %.3g)", n, m, i, got[i], want[i], tol)
				}
			}
		}
	}
}

// TestSerialGram compares the serial Gram kernels with the reference
// loops under the direct kernels' bounds (gram_test.go's header).
func TestSerialGram(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(10, 10))
		for _, c := range gramCases() {
			a, b := randMat(c.n1, c.d, c.shift, rng), randMat(c.n2, c.d, 0, rng)
			amp, cc := 1.7, 1/(0.2*float64(c.d))
			got, want, dist := newDst(c.n1, c.n2), newDst(c.n1, c.n2), newDst(c.n1, c.n2)
			SerialGramSETo(got, a, b, amp, cc)
			gramSERef(want, a, b, amp, cc)
			sqDistRef(dist, a, b)
			dot, dotRef := newDst(c.n1, c.n2), newDst(c.n1, c.n2)
			SerialDotTo(dot, a, b)
			for i := range c.n1 {
				for j := range c.n2 {
					g, w := got.Data[i*got.Stride+j], want.Data[i*want.Stride+j]
					dd := distTol(true, c.d, dist.Data[i*dist.Stride+j], 0, 0)
					if tol := w*(cc*dd+8*eps) + amp*0x1p-1022; !(math.Abs(g-w) <= tol) {
						t.Fatalf("%v: K[%d,%d] = %v, want %v (tol %.3g)", c, i, j, g, w, tol)
					}
					var s, abs float64
					for k := range c.d {
						s += a.Data[i*a.Stride+k] * b.Data[j*b.Stride+k]
						abs += math.Abs(a.Data[i*a.Stride+k] * b.Data[j*b.Stride+k])
					}
					dotRef.Data[i*dotRef.Stride+j] = s
					if tol := 2 * float64(c.d+2) * eps * abs; !(math.Abs(dot.Data[i*dot.Stride+j]-s) <= tol) {
						t.Fatalf("%v: dot[%d,%d] = %v, want %v (tol %.3g)", c, i, j, dot.Data[i*dot.Stride+j], s, tol)
					}
				}
			}
		}
	})
}

// BenchmarkSolveRight compares the serial solve with the BLAS one (at the
// process's BLAS thread count) on a prediction's shape: 256 right-hand
// sides, |A| = 1000.
func BenchmarkSolveRight(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, m = 1000, 256
	l := lowerOnly(wellCond(n, rng))
	l = blas64.General{Rows: n, Cols: n, Stride: n, Data: func() []float64 {
		d := make([]float64, n*n)
		for i := range n {
			copy(d[i*n:(i+1)*n], l.Data[i*l.Stride:])
		}
		return d
	}()}
	rhs := randMat(m, n, 0, rng)
	x := blas64.General{Rows: m, Cols: n, Stride: n, Data: make([]float64, m*n)}
	for _, c := range []struct {
		name string
		f    func(dst, l, b blas64.General)
	}{{"serial", SerialSolveLowerTransRightTo}, {"blas", SolveLowerTransRightTo}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				c.f(x, l, rhs)
			}
			b.ReportMetric(float64(n)*float64(n)*float64(m)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}
