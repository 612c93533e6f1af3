package la

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// The solves use the recursive DGEMM-based solver only for many right-hand
// sides, from the crossovers measured on this project's machine
// (BenchmarkSolveCrossover; n = 100 to 2000, OpenBLAS's Cooperlake
// kernels). With several BLAS threads DTRSM wins below them, because DGEMM
// with a thin operand repacks L at every level of the recursion and the
// solver first inverts the diagonal blocks of L (about 0.8 ms at n = 2000),
// serially. With one thread, as where Go workers share the cores, the
// solver wins from 128 right-hand sides on: 1.2 to 2 times DTRSM's speed
// at n = 300 to 600, even at n = 2000.
// They are variables so that the tests can exercise both paths.
var (
	triLeftMin  = 512  // L X = B and Lᵀ X = B: columns of B
	triRightMin = 1536 // X Lᵀ = B: rows of B
	triOneMin   = 128  // either, with one BLAS thread
)

// useSolver reports whether a solve with m right-hand sides takes the
// DGEMM-based solver, min being its crossover with several BLAS threads.
func useSolver(m, min int) bool {
	if m >= min {
		return true
	}
	return m >= triOneMin && blasThreads() == 1
}

// SolveLowerTo sets dst = L⁻¹ b, the solution X of L X = B, where L is the
// lower triangle of the n×n matrix l (for example a factor from Cholesky;
// its strict upper triangle is not referenced) and b is n×m. dst may be b
// itself (the solve is then in place); otherwise dst and b must not overlap.
// It panics if the shapes do not match.
//
// For many right-hand sides (m >= 512, or 128 with one BLAS thread) the
// solve runs on DGEMM (see triSolver) and does not allocate once its
// pooled workspace has grown; for fewer it is one DTRSM.
func SolveLowerTo(dst, l, b blas64.General) {
	n, m := checkSolve("SolveLowerTo", dst, l, b, false)
	if n == 0 || m == 0 {
		return
	}
	copyIfDistinct(dst, b)
	if !useSolver(m, triLeftMin) {
		blas64.Trsm(blas.Left, blas.NoTrans, 1, lowerTri(l), dst)
		return
	}
	s := getTriSolver(l, n)
	s.invertLeaves(n)
	s.leftN(0, n, dst)
	putTriSolver(s)
}

// SolveLowerTransTo sets dst = L⁻ᵀ b, the solution X of Lᵀ X = B; the
// arguments are as for SolveLowerTo.
func SolveLowerTransTo(dst, l, b blas64.General) {
	n, m := checkSolve("SolveLowerTransTo", dst, l, b, false)
	if n == 0 || m == 0 {
		return
	}
	copyIfDistinct(dst, b)
	if !useSolver(m, triLeftMin) {
		blas64.Trsm(blas.Left, blas.Trans, 1, lowerTri(l), dst)
		return
	}
	s := getTriSolver(l, n)
	s.invertLeaves(n)
	s.leftT(0, n, dst)
	putTriSolver(s)
}

// SolveLowerTransRightTo sets dst = b L⁻ᵀ, the solution X of X Lᵀ = B, for
// an m×n b: each row of b is a right-hand side. This is the form for a
// cross-covariance block with one test point per row (row i of dst is
// L⁻¹ k*ᵢ). dst may be b itself; otherwise they must not overlap. It uses
// the DGEMM-based solver from m >= 1536 rows on (128 with one BLAS thread).
func SolveLowerTransRightTo(dst, l, b blas64.General) {
	n, m := checkSolve("SolveLowerTransRightTo", dst, l, b, true)
	if n == 0 || m == 0 {
		return
	}
	copyIfDistinct(dst, b)
	if !useSolver(m, triRightMin) {
		blas64.Trsm(blas.Right, blas.Trans, 1, lowerTri(l), dst)
		return
	}
	s := getTriSolver(l, n)
	s.invertLeaves(n)
	s.rightT(0, n, dst)
	putTriSolver(s)
}

// CholSolveTo sets dst = (L Lᵀ)⁻¹ b = A⁻¹ b for a Cholesky factor L of A
// (the lower triangle of l); the arguments are as for SolveLowerTo.
func CholSolveTo(dst, l, b blas64.General) {
	n, m := checkSolve("CholSolveTo", dst, l, b, false)
	if n == 0 || m == 0 {
		return
	}
	copyIfDistinct(dst, b)
	if !useSolver(m, triLeftMin) {
		blas64.Trsm(blas.Left, blas.NoTrans, 1, lowerTri(l), dst)
		blas64.Trsm(blas.Left, blas.Trans, 1, lowerTri(l), dst)
		return
	}
	s := getTriSolver(l, n)
	s.invertLeaves(n)
	s.leftN(0, n, dst)
	s.leftT(0, n, dst)
	putTriSolver(s)
}

// checkSolve panics unless l is square (n×n) and b and dst have the same
// shape, n rows (or n columns when right), and returns n and the number of
// right-hand sides.
func checkSolve(name string, dst, l, b blas64.General, right bool) (n, m int) {
	if l.Rows != l.Cols {
		panic("la: " + name + ": triangular matrix is not square")
	}
	n = l.Rows
	if dst.Rows != b.Rows || dst.Cols != b.Cols {
		panic("la: " + name + ": destination shape mismatch")
	}
	if right {
		if b.Cols != n {
			panic("la: " + name + ": right-hand side has the wrong number of columns")
		}
		return n, b.Rows
	}
	if b.Rows != n {
		panic("la: " + name + ": right-hand side has the wrong number of rows")
	}
	return n, b.Cols
}

// copyIfDistinct copies b into dst unless they are the same matrix.
func copyIfDistinct(dst, b blas64.General) {
	if b.Rows == 0 || b.Cols == 0 {
		return
	}
	if &dst.Data[0] == &b.Data[0] && dst.Stride == b.Stride {
		return
	}
	copyGeneral(dst, b)
}

func lowerTri(l blas64.General) blas64.Triangular {
	return blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: l.Rows, Stride: l.Stride, Data: l.Data}
}
