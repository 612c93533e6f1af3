package la

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"

	"github.com/passgp-fast/passgp-fast/la/internal/asm"
)

const eps = 0x1p-52

// Error bounds the tests hold the Gram kernels to (documented in
// docs/performance.md, "Gram kernels"):
//
//   - direct distances: relative, 2(d+1)ε·D_ij (same differences as the
//     reference, summed with FMAs);
//   - GEMM distances: absolute, 4(d+2)ε·(|a_i|² + |b_j|²), from the
//     cancellation in |a|² + |b|² - 2a·b; near-identical points therefore
//     get an absolute, not a relative, error;
//   - SE: amp·e^{-cD}·(c·δD + 8ε) + amp·2⁻¹⁰²² (flush below the smallest
//     normal on AVX2/NEON), δD the distance bound above;
//   - polynomial: p·amp·|y|^{p-1}·g·δ + 4(p+1)ε·|K|, y = g a·b + off,
//     δ = 2(d+2)ε·|a_i||b_j| the error of the inner product.

func randMat(r, c int, shift float64, rng *rand.Rand) blas64.General {
	m := blas64.General{Rows: r, Cols: c, Stride: c + 2, Data: make([]float64, r*(c+2))}
	for i := range m.Data {
		m.Data[i] = 2*rng.Float64() - 1 + shift
	}
	return m
}

func newDst(r, c int) blas64.General {
	d := blas64.General{Rows: r, Cols: c, Stride: c + 1, Data: make([]float64, r*(c+1))}
	for i := range d.Data {
		d.Data[i] = math.NaN() // every element must be written
	}
	return d
}

func sqNorm(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return s
}

func distTol(direct bool, d int, ref, na, nb float64) float64 {
	if direct {
		return 2*float64(d+1)*eps*ref + 1e-300
	}
	return 4 * float64(d+2) * eps * (na + nb)
}

type gramCase struct {
	n1, n2, d int
	shift     float64 // added to every input: larger norms, more cancellation
}

func gramCases() []gramCase {
	sizes := []int{1, 3, 7, 17, 63, 65, 129}
	var cs []gramCase
	for _, d := range []int{1, 2, 22, 256, 784} {
		for k, n1 := range sizes {
			n2 := sizes[(k+3)%len(sizes)]
			if d >= 256 && n1*n2 > 65*129 {
				continue // keep the reference loops fast
			}
			cs = append(cs, gramCase{n1, n2, d, 0})
		}
		cs = append(cs, gramCase{33, 31, d, 3})
	}
	return cs
}

// eachConfig runs f for every SIMD path this CPU supports and both
// formulations.
func eachConfig(t *testing.T, f func(t *testing.T, direct bool)) {
	for _, p := range asm.Supported() {
		for _, mode := range []GramMethod{modeDirect, modeGEMM} {
			name := p.String() + "/gemm"
			if mode == modeDirect {
				name = p.String() + "/direct"
			}
			t.Run(name, func(t *testing.T) {
				old := asm.SetPath(p)
				defer asm.SetPath(old)
				gramMode = mode
				defer func() { gramMode = modeAuto }()
				f(t, mode == modeDirect)
			})
		}
	}
}

func TestSqDistTo(t *testing.T) {
	eachConfig(t, func(t *testing.T, direct bool) {
		rng := rand.New(rand.NewPCG(1, 1))
		for _, c := range gramCases() {
			a, b := randMat(c.n1, c.d, c.shift, rng), randMat(c.n2, c.d, -c.shift, rng)
			got, want := newDst(c.n1, c.n2), newDst(c.n1, c.n2)
			SqDistTo(got, a, b)
			sqDistRef(want, a, b)
			checkDist(t, fmt.Sprint(c), direct, got, want, a, b)
		}
	})
}

func checkDist(t *testing.T, name string, direct bool, got, want, a, b blas64.General) {
	t.Helper()
	bad := 0
	for i := 0; i < want.Rows; i++ {
		for j := 0; j < want.Cols; j++ {
			g, w := got.Data[i*got.Stride+j], want.Data[i*want.Stride+j]
			tol := distTol(direct, a.Cols, w, sqNorm(row(a, i)), sqNorm(row(b, j)))
			if !(g >= 0) || math.Abs(g-w) > tol {
				if bad++; bad <= 3 {
					t.Errorf("%s: D[%d,%d] = %v, want %v (tol %.3g)", name, i, j, g, w, tol)
				}
			}
		}
	}
}

func TestGramSETo(t *testing.T) {
	eachConfig(t, func(t *testing.T, direct bool) {
		rng := rand.New(rand.NewPCG(2, 2))
		for _, c := range gramCases() {
			a, b := randMat(c.n1, c.d, c.shift, rng), randMat(c.n2, c.d, 0, rng)
			amp := 1.7
			cc := 1 / (0.2 * float64(c.d)) // length scale² ~ d/10: values over the whole range
			got, want, dist := newDst(c.n1, c.n2), newDst(c.n1, c.n2), newDst(c.n1, c.n2)
			GramSETo(got, a, b, amp, cc)
			gramSERef(want, a, b, amp, cc)
			sqDistRef(dist, a, b)
			bad := 0
			for i := 0; i < c.n1; i++ {
				for j := 0; j < c.n2; j++ {
					g, w := got.Data[i*got.Stride+j], want.Data[i*want.Stride+j]
					dd := distTol(direct, c.d, dist.Data[i*dist.Stride+j], sqNorm(row(a, i)), sqNorm(row(b, j)))
					tol := w*(cc*dd+8*eps) + amp*0x1p-1022
					if math.Abs(g-w) > tol || math.IsNaN(g) {
						if bad++; bad <= 3 {
							t.Errorf("%v: K[%d,%d] = %v, want %v (tol %.3g)", c, i, j, g, w, tol)
						}
					}
				}
			}
		}
	})
}

func TestGramPolyTo(t *testing.T) {
	eachConfig(t, func(t *testing.T, _ bool) {
		rng := rand.New(rand.NewPCG(3, 3))
		for _, c := range gramCases() {
			for _, p := range []int{0, 1, 2, 9} {
				a, b := randMat(c.n1, c.d, c.shift, rng), randMat(c.n2, c.d, 0, rng)
				amp, g, off := 0.8, 1/float64(c.d), 1.0
				got, want := newDst(c.n1, c.n2), newDst(c.n1, c.n2)
				GramPolyTo(got, a, b, amp, g, off, p)
				gramPolyRef(want, a, b, amp, g, off, p)
				bad := 0
				for i := 0; i < c.n1; i++ {
					for j := 0; j < c.n2; j++ {
						gv, w := got.Data[i*got.Stride+j], want.Data[i*want.Stride+j]
						var dot float64
						for k, v := range row(a, i) {
							dot += v * b.Data[j*b.Stride+k]
						}
						y := g*dot + off
						delta := 2 * float64(c.d+2) * eps * math.Sqrt(sqNorm(row(a, i))*sqNorm(row(b, j)))
						tol := float64(p)*amp*Powi(math.Abs(y), max(p-1, 0))*g*delta + 4*float64(p+1)*eps*math.Abs(w)
						if math.Abs(gv-w) > tol+1e-300 || math.IsNaN(gv) {
							if bad++; bad <= 3 {
								t.Errorf("%v p=%d: K[%d,%d] = %v, want %v (tol %.3g)", c, p, i, j, gv, w, tol)
							}
						}
					}
				}
			}
		}
	})
}

func TestDotTo(t *testing.T) {
	eachConfig(t, func(t *testing.T, _ bool) { testDotTo(t) })
}

func testDotTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, c := range gramCases() {
		a, b := randMat(c.n1, c.d, c.shift, rng), randMat(c.n2, c.d, 0, rng)
		for _, sym := range []bool{false, true} {
			if sym {
				b = a
			}
			got, want := newDst(a.Rows, b.Rows), newDst(a.Rows, b.Rows)
			DotTo(got, a, b)
			gramPolyRef(want, a, b, 1, 1, 0, 1)
			for i := 0; i < a.Rows; i++ {
				for j := 0; j < b.Rows; j++ {
					tol := 2 * float64(c.d+2) * eps * math.Sqrt(sqNorm(row(a, i))*sqNorm(row(b, j)))
					if g, w := got.Data[i*got.Stride+j], want.Data[i*want.Stride+j]; math.Abs(g-w) > tol || math.IsNaN(g) {
						t.Fatalf("%v sym=%v: G[%d,%d] = %v, want %v", c, sym, i, j, g, w)
					}
				}
			}
		}
	}
}

// TestGramSymmetric checks the a == b case: exact symmetry, exact diagonal
// (distance 0, SE amp), and agreement with the reference.
func TestGramSymmetric(t *testing.T) {
	eachConfig(t, func(t *testing.T, direct bool) {
		rng := rand.New(rand.NewPCG(5, 5))
		for _, n := range []int{1, 3, 7, 17, 63, 65, 129} {
			for _, d := range []int{1, 2, 22, 256} {
				a := randMat(n, d, 2, rng)
				amp, c := 1.3, 1/float64(d)
				dist, k, kp := newDst(n, n), newDst(n, n), newDst(n, n)
				SqDistTo(dist, a, a)
				GramSETo(k, a, a, amp, c)
				GramPolyTo(kp, a, a, amp, 1/float64(d), 1, 3)
				want := newDst(n, n)
				sqDistRef(want, a, a)
				name := fmt.Sprintf("n=%d d=%d", n, d)
				checkDist(t, name, direct, dist, want, a, a)
				for i := 0; i < n; i++ {
					if v := dist.Data[i*dist.Stride+i]; v != 0 {
						t.Errorf("%s: D[%d,%d] = %v, want 0", name, i, i, v)
					}
					if v := k.Data[i*k.Stride+i]; v != amp {
						t.Errorf("%s: K[%d,%d] = %v, want %v", name, i, i, v, amp)
					}
					for j := 0; j < n; j++ {
						for _, m := range []blas64.General{dist, k, kp} {
							if m.Data[i*m.Stride+j] != m.Data[j*m.Stride+i] {
								t.Fatalf("%s: not symmetric at (%d,%d)", name, i, j)
							}
						}
					}
				}
			}
		}
	})
}

// TestSqDistNearIdentical documents the accuracy of both formulations for
// near-identical points (distance 1e-16 relative to the norms): the direct
// kernel keeps relative accuracy, GEMM stays within its absolute bound.
func TestSqDistNearIdentical(t *testing.T) {
	eachConfig(t, func(t *testing.T, direct bool) {
		rng := rand.New(rand.NewPCG(6, 6))
		for _, d := range []int{2, 22, 256} {
			a := randMat(17, d, 5, rng)
			b := randMat(17, d, 0, rng)
			for i := 0; i < b.Rows; i++ {
				for k := 0; k < d; k++ {
					b.Data[i*b.Stride+k] = a.Data[i*a.Stride+k] * (1 + 1e-8*b.Data[i*b.Stride+k])
				}
			}
			got, want := newDst(17, 17), newDst(17, 17)
			SqDistTo(got, a, b)
			sqDistRef(want, a, b)
			checkDist(t, fmt.Sprintf("d=%d", d), direct, got, want, a, b)
		}
	})
}

// TestGramEmpty checks the degenerate shapes.
func TestGramEmpty(t *testing.T) {
	a := blas64.General{Rows: 3, Cols: 0, Stride: 0, Data: nil}
	b := blas64.General{Rows: 2, Cols: 0, Stride: 0, Data: nil}
	dst := newDst(3, 2)
	GramSETo(dst, a, b, 2, 1)
	GramPolyTo(newDst(3, 2), a, b, 2, 1, 3, 2)
	SqDistTo(newDst(3, 2), a, b)
	for i := 0; i < 3; i++ {
		for j := 0; j < 2; j++ {
			if v := dst.Data[i*dst.Stride+j]; v != 2 {
				t.Fatalf("K[%d,%d] = %v with d=0, want 2", i, j, v)
			}
		}
	}
	e := blas64.General{Rows: 0, Cols: 4, Stride: 4}
	GramSETo(blas64.General{Rows: 0, Cols: 3, Stride: 3}, e, randMat(3, 4, 0, rand.New(rand.NewPCG(1, 1))), 1, 1)
}

// TestGramThreadsDeterministic: the direct path's result does not depend
// on the worker count.
func TestGramThreadsDeterministic(t *testing.T) {
	old := Threads()
	defer SetThreads(old)
	gramMode = modeDirect
	defer func() { gramMode = modeAuto }()
	rng := rand.New(rand.NewPCG(7, 7))
	a, b := randMat(67, 22, 0, rng), randMat(45, 22, 0, rng)
	var prev blas64.General
	for _, th := range []int{1, 2, 3} {
		SetThreads(th)
		k := newDst(67, 45)
		GramSETo(k, a, b, 1, 0.1)
		if prev.Data != nil {
			for i := range k.Data {
				if k.Data[i] != prev.Data[i] && !(math.IsNaN(k.Data[i]) && math.IsNaN(prev.Data[i])) {
					t.Fatalf("threads=%d: element %d differs", th, i)
				}
			}
		}
		prev = k
	}
}

// TestGramAuto runs the automatic dispatch on both sides of the crossovers
// (where they are within reach).
func TestGramAuto(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	cross, sym := DirectMaxD()
	for _, d := range []int{cross, cross + 1, sym, sym + 1, 1, 784} {
		if d < 1 || d > 784 {
			continue
		}
		a, b := randMat(9, d, 0, rng), randMat(11, d, 0, rng)
		got, want := newDst(9, 11), newDst(9, 11)
		SqDistTo(got, a, b)
		sqDistRef(want, a, b)
		checkDist(t, fmt.Sprintf("d=%d", d), d <= cross, got, want, a, b)
		got, want = newDst(9, 9), newDst(9, 9)
		SqDistTo(got, a, a)
		sqDistRef(want, a, a)
		checkDist(t, fmt.Sprintf("sym d=%d", d), d <= sym, got, want, a, a)
	}
}
