package la

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Cholesky overwrites the lower triangle of the n×n matrix a with its
// Cholesky factor L (a = L Lᵀ). The strict upper triangle is not referenced.
// It returns false if a is not positive definite (a pivot is not positive or
// not finite); a is then partly overwritten.
//
// The factorisation is the recursive left/right splitting
//
//	[A11  .  ]   [L11  0  ] [L11ᵀ L21ᵀ]
//	[A21 A22 ] = [L21 L22 ] [ 0   L22ᵀ]
//
//	L11 = chol(A11),  L21 = A21 L11⁻ᵀ,  L22 = chol(A22 - L21 L21ᵀ),
//
// with the split at a multiple of triNB = 64 near n/2, and leaves of order
// 64 split once more into two pure-Go unblocked factorisations. The update of
// A22 is one DSYRK; the solve for L21 is the DGEMM-based recursive solve of
// triSolver, which reuses the inverses of the leaves. Almost all FLOPs are
// thus in large, multi-threaded level-3 calls: for n = 2000 on this
// project's 2-core machine it ran at 0.76 of the DGEMM rate on two threads
// (0.81 per CPU second on one), where LAPACKE's row-major dpotrf reached 0.56
// (0.68); docs/performance.md has the figures and how they were measured.
//
// Cholesky does not allocate once its pooled workspace has grown to n.
func Cholesky(a blas64.General) bool {
	if a.Rows != a.Cols {
		panic("la: Cholesky of a non-square matrix")
	}
	n := a.Rows
	if n == 0 {
		return true
	}
	if a.Stride < n || len(a.Data) < (n-1)*a.Stride+n {
		panic("la: Cholesky: short matrix data")
	}
	s := getTriSolver(a, n)
	ok := s.chol(0, n)
	putTriSolver(s)
	return ok
}

// CholeskyStop is Cholesky that asks stop between the level-3 steps of
// the factorisation (a few times n/64 calls, none for n <= 64) and
// abandons it once stop returns true: it then returns stopped = true and
// ok = false, with a partly factored. A long computation that must
// honour a cancellation (EP on thousands of points) stops within one such
// step instead of after the whole O(n³/3) factorisation. The factor,
// when it completes, is Cholesky's bit for bit.
func CholeskyStop(a blas64.General, stop func() bool) (ok, stopped bool) {
	if a.Rows != a.Cols {
		panic("la: Cholesky of a non-square matrix")
	}
	return cholStop("Cholesky", a, blas64.General{}, false, stop)
}

// CholeskyInvStop is CholeskyStop on a followed, once the factor is
// complete, by InvLowerStop(w, a) with the same stop. The inversion reuses
// the inverses of the diagonal blocks that the factorisation computed for
// its own solves (all but the last), so that a parallel EP sweep on 150 to
// 300 points, which needs L and L⁻¹ of B, takes 7 to 11% less time
// (docs/performance.md). The factor and W = L⁻¹ are those of the two calls
// bit for bit. w and a must not overlap.
func CholeskyInvStop(a, w blas64.General, stop func() bool) (ok, stopped bool) {
	checkSquarePair("CholeskyInvStop", w, a)
	return cholStop("CholeskyInvStop", a, w, true, stop)
}

// cholStop is CholeskyStop on the square a and, if inverse, then
// CholeskyInvStop's inversion into w; name labels its panic.
func cholStop(name string, a, w blas64.General, inverse bool, stop func() bool) (ok, stopped bool) {
	n := a.Rows
	if n == 0 {
		return true, false
	}
	if a.Stride < n || len(a.Data) < (n-1)*a.Stride+n {
		panic("la: " + name + ": short matrix data")
	}
	s := getTriSolver(a, n)
	s.stop = stop
	if ok = s.chol(0, n); ok && inverse && !s.halt() {
		last := (n - 1) / triNB * triNB
		s.invertLeaf(last, n-last)
		s.invRec(w, 0, n)
		if !s.stopped {
			zeroUpper(w)
		}
	}
	stopped = s.stopped
	putTriSolver(s)
	return ok && !stopped, stopped
}

// chol factors the n×n diagonal block of s.l at row off in place and, as
// each leaf is factored, stores its inverse for the solves that follow.
func (s *triSolver) chol(off, n int) bool {
	if n <= triNB {
		return s.cholLeaf(off, n)
	}
	n1 := triSplit(n)
	n2 := n - n1
	if s.halt() || !s.chol(off, n1) || s.halt() {
		return false
	}
	a21 := s.block(off+n1, off, n2, n1)
	s.rightT(off, n1, a21) // L21 = A21 L11⁻ᵀ
	if s.halt() {
		return false
	}
	a22 := blas64.Symmetric{Uplo: blas.Lower, N: n2, Stride: s.lda, Data: s.l[(off+n1)*s.lda+off+n1:]}
	blas64.Syrk(blas.NoTrans, -1, a21, 1, a22) // A22 -= L21 L21ᵀ
	return !s.halt() && s.chol(off+n1, n2)
}

// cholLeaf factors a leaf of order n <= triNB: one more split at cholNB,
// with the pure-Go kernels on the two diagonal blocks and small level-3
// calls between them, and stores the leaf's inverse (unless it is the last
// leaf, whose inverse no solve of the factorisation uses).
func (s *triSolver) cholLeaf(off, n int) bool {
	last := off+n == s.n
	w := s.inv[off*triNB:]
	a := s.l[off*s.lda+off:]
	n1 := min(n, cholNB)
	if !cholUnblocked(a, s.lda, n1) {
		return false
	}
	if n <= cholNB {
		if !last {
			invLower(w, triNB, a, s.lda, n)
		}
		return true
	}
	n2 := n - n1
	invLower(w, triNB, a, s.lda, n1)
	w11 := blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: n1, Stride: triNB, Data: w}
	a21 := s.block(off+n1, off, n2, n1)
	blas64.Trmm(blas.Right, blas.Trans, 1, w11, a21) // L21 = A21 L11⁻ᵀ
	a22 := blas64.Symmetric{Uplo: blas.Lower, N: n2, Stride: s.lda, Data: a[n1*s.lda+n1:]}
	blas64.Syrk(blas.NoTrans, -1, a21, 1, a22)
	if !cholUnblocked(a[n1*s.lda+n1:], s.lda, n2) {
		return false
	}
	if !last {
		invLower(w[n1*triNB+n1:], triNB, a[n1*s.lda+n1:], s.lda, n2)
		s.leafOffDiag(off, n)
	}
	return true
}

// cholUnblocked is the row-oriented (bordered) Cholesky of a small block:
// row i of L follows from the rows above it by contiguous dot products,
//
//	L[i][j] = (A[i][j] - L[i][:j]·L[j][:j]) / L[j][j],
//	L[i][i] = sqrt(A[i][i] - |L[i][:i]|²).
func cholUnblocked(a []float64, lda, n int) bool {
	for i := 0; i < n; i++ {
		ri := a[i*lda : i*lda+i+1]
		// Two columns per pass: one sweep over row i serves both dots.
		j := 0
		for ; j+2 <= i; j += 2 {
			r0 := a[j*lda : j*lda+j+1]
			r1 := a[(j+1)*lda : (j+1)*lda+j+2]
			s0, s1 := dot2(ri[:j], r0[:j], r1[:j])
			x0 := (ri[j] - s0) / r0[j]
			ri[j] = x0
			ri[j+1] = (ri[j+1] - s1 - x0*r1[j]) / r1[j+1]
		}
		for ; j < i; j++ {
			rj := a[j*lda : j*lda+j+1]
			ri[j] = (ri[j] - dotUnitary(ri[:j], rj[:j])) / rj[j]
		}
		d := ri[i] - dotUnitary(ri[:i], ri[:i])
		if !(d > 0) || math.IsInf(d, 1) {
			ri[i] = d
			return false
		}
		ri[i] = math.Sqrt(d)
	}
	return true
}

// dotUnitary returns x·y for len(x) <= len(y), unrolled four ways with
// independent accumulators.
func dotUnitary(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// dot2 returns x·y and x·z.
func dot2(x, y, z []float64) (float64, float64) {
	y = y[:len(x)]
	z = z[:len(x)]
	var s0, s1, t0, t1 float64
	i := 0
	for ; i+2 <= len(x); i += 2 {
		s0 += x[i] * y[i]
		t0 += x[i] * z[i]
		s1 += x[i+1] * y[i+1]
		t1 += x[i+1] * z[i+1]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
		t0 += x[i] * z[i]
	}
	return s0 + s1, t0 + t1
}
