package la

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// InvLowerTo sets the lower triangle of dst to L⁻¹, where L is the lower
// triangle of the n×n l (for example a Cholesky factor), and zeros the strict
// upper triangle of dst, so that dst can go straight into DGEMM/DSYRK. dst
// may be l itself; otherwise they must not overlap. L must have a non-zero
// diagonal (a Cholesky factor does).
//
// It is the recursive inversion
//
//	[A 0]⁻¹   [ A⁻¹        0  ]
//	[B C]   = [-C⁻¹ B A⁻¹  C⁻¹]
//
// with both solves on DGEMM (n³/3 FLOPs in all), where LAPACK's dtrtri uses
// DTRMM/DTRSM.
func InvLowerTo(dst, l blas64.General) {
	InvLowerStop(dst, l, nil)
}

// InvLowerStop is InvLowerTo that asks stop, when it is not nil, between
// the level-3 steps of the inversion (a few times n/64 calls) and abandons
// it once stop returns true: it then returns true with dst partly written.
// A completed inversion is InvLowerTo's bit for bit.
func InvLowerStop(dst, l blas64.General, stop func() bool) (stopped bool) {
	n := checkSquarePair("InvLowerTo", dst, l)
	if n == 0 {
		return false
	}
	s := getTriSolver(l, n)
	s.stop = stop
	s.invertLeaves(n)
	s.invRec(dst, 0, n)
	stopped = s.stopped
	if !stopped {
		zeroUpper(dst)
	}
	putTriSolver(s)
	return stopped
}

// CholInverseTo sets dst to A⁻¹ = L⁻ᵀ L⁻¹ for a Cholesky factor L of A (the
// lower triangle of l), filling both triangles of dst. dst may be l itself;
// otherwise they must not overlap. In EP this is B⁻¹, from which
// R = S^½ B⁻¹ S^½ of the evidence gradient follows by scaling.
//
// It inverts L as InvLowerTo does and then forms WᵀW for W = L⁻¹ in place by
// the recursion (LAPACK's dlauum)
//
//	[W11  0 ]ᵀ[W11  0 ]   [W11ᵀW11 + W21ᵀW21   .     ]
//	[W21 W22] [W21 W22] = [W22ᵀW21          W22ᵀW22 ],
//
// again on DSYRK and DGEMM: 2n³/3 FLOPs in all, like LAPACK's dpotri.
func CholInverseTo(dst, l blas64.General) {
	n := checkSquarePair("CholInverseTo", dst, l)
	if n == 0 {
		return
	}
	s := getTriSolver(l, n)
	s.invertLeaves(n)
	s.invRec(dst, 0, n)
	s.lauum(dst, 0, n)
	SymmetrizeLower(dst)
	putTriSolver(s)
}

// InverseFromInvTo sets dst to A⁻¹ = WᵀW for W = L⁻¹, the inverse of a
// Cholesky factor of A held in the lower triangle of w (as InvLowerTo
// leaves it), filling both triangles of dst; dst may be w itself,
// otherwise they must not overlap. It is the second half of CholInverseTo,
// with the same result bit for bit, for callers that have W already: EP's
// refresh computes it for the posterior variances, and the evidence
// gradient needs B⁻¹.
func InverseFromInvTo(dst, w blas64.General) {
	n := checkSquarePair("InverseFromInvTo", dst, w)
	if n == 0 {
		return
	}
	copyIfDistinct(dst, w)
	s := getTriSolver(w, n)
	// The leaves of lauum are W's diagonal blocks: the inverses of L's,
	// as invertLeaves would compute them.
	for off := 0; off < n; off += triNB {
		m := min(triNB, n-off)
		leaf := s.inv[off*triNB:]
		for i := 0; i < m; i++ {
			r := leaf[i*triNB : i*triNB+triNB]
			copy(r, w.Data[(off+i)*w.Stride+off:(off+i)*w.Stride+off+i+1])
			clear(r[i+1:])
		}
	}
	s.lauum(dst, 0, n)
	SymmetrizeLower(dst)
	putTriSolver(s)
}

// SymmetrizeLower copies the strict lower triangle of the square matrix a
// into its strict upper triangle, in cache-sized tiles.
func SymmetrizeLower(a blas64.General) {
	if a.Rows != a.Cols {
		panic("la: SymmetrizeLower of a non-square matrix")
	}
	const tile = 64
	n, s := a.Rows, a.Stride
	for i0 := 0; i0 < n; i0 += tile {
		for j0 := 0; j0 <= i0; j0 += tile {
			for i := i0; i < min(i0+tile, n); i++ {
				ri := a.Data[i*s:]
				for j := j0; j < min(j0+tile, i); j++ {
					a.Data[j*s+i] = ri[j]
				}
			}
		}
	}
}

// checkSquarePair panics unless l is square and dst has its shape.
func checkSquarePair(name string, dst, l blas64.General) int {
	if l.Rows != l.Cols {
		panic("la: " + name + ": matrix is not square")
	}
	if dst.Rows != l.Rows || dst.Cols != l.Cols {
		panic("la: " + name + ": destination shape mismatch")
	}
	return l.Rows
}

// zeroUpper zeros the strict upper triangle of the square a.
func zeroUpper(a blas64.General) {
	for i := 0; i < a.Rows; i++ {
		r := a.Data[i*a.Stride+i+1 : i*a.Stride+a.Cols]
		for j := range r {
			r[j] = 0
		}
	}
}

// invRec writes W = L⁻¹ for the n×n diagonal block at row off into the lower
// triangle of the same block of w. It works top-down: the off-diagonal block
// of a level needs only the diagonal blocks of L, which the deeper levels
// overwrite afterwards, so w may be s.l itself.
func (s *triSolver) invRec(w blas64.General, off, n int) {
	if s.halt() {
		return
	}
	if n <= triNB {
		inv := s.leafInv(off, n)
		for i := 0; i < n; i++ {
			copy(w.Data[(off+i)*w.Stride+off:(off+i)*w.Stride+off+i+1], inv.Data[i*inv.Stride:i*inv.Stride+i+1])
		}
		return
	}
	n1 := triSplit(n)
	n2 := n - n1
	w21 := blas64.General{Rows: n2, Cols: n1, Stride: w.Stride, Data: w.Data[(off+n1)*w.Stride+off:]}
	copyIfDistinct(w21, s.block(off+n1, off, n2, n1))
	s.rightN(off, n1, w21)    // B A⁻¹
	s.leftN(off+n1, n2, w21)  // C⁻¹ B A⁻¹
	for i := 0; i < n2; i++ { // negate
		r := w21.Data[i*w.Stride : i*w.Stride+n1]
		for j := range r {
			r[j] = -r[j]
		}
	}
	s.invRec(w, off, n1)
	s.invRec(w, off+n1, n2)
}

// rightN sets x = x L⁻¹ for the n×n diagonal block of L at row off (x has n
// columns): with L = [A 0; B C], x2 = b2 C⁻¹ first, then x1 = (b1 - x2 B) A⁻¹.
func (s *triSolver) rightN(off, n int, x blas64.General) {
	if x.Rows == 0 {
		return
	}
	if n <= triNB {
		blas64.Trmm(blas.Right, blas.NoTrans, 1, s.leafTri(off, n), x)
		return
	}
	n1 := triSplit(n)
	x1 := blas64.General{Rows: x.Rows, Cols: n1, Stride: x.Stride, Data: x.Data}
	x2 := blas64.General{Rows: x.Rows, Cols: n - n1, Stride: x.Stride, Data: x.Data[n1:]}
	s.rightN(off+n1, n-n1, x2)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, x2, s.block(off+n1, off, n-n1, n1), 1, x1)
	s.rightN(off, n1, x1)
}

// lauum overwrites the lower triangle of the n×n diagonal block at row off
// of w, which holds W = L⁻¹ of that block, with the lower triangle of WᵀW.
// The leaves of W are the stored leaf inverses.
func (s *triSolver) lauum(w blas64.General, off, n int) {
	if n <= triNB {
		inv := s.leafInv(off, n)
		t := s.tmpMat(n, n)
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, inv, inv, 0, t)
		for i := 0; i < n; i++ {
			copy(w.Data[(off+i)*w.Stride+off:(off+i)*w.Stride+off+i+1], t.Data[i*n:i*n+i+1])
		}
		return
	}
	n1 := triSplit(n)
	n2 := n - n1
	w21 := blas64.General{Rows: n2, Cols: n1, Stride: w.Stride, Data: w.Data[(off+n1)*w.Stride+off:]}
	s.lauum(w, off, n1)
	w11 := blas64.Symmetric{Uplo: blas.Lower, N: n1, Stride: w.Stride, Data: w.Data[off*w.Stride+off:]}
	blas64.Syrk(blas.Trans, 1, w21, 1, w11) // W11ᵀW11 + W21ᵀW21
	s.trmmLT(w, off+n1, n2, w21)            // W22ᵀW21
	s.lauum(w, off+n1, n2)
}

// trmmLT sets x = Wᵀx for the lower triangular n×n diagonal block of w at row
// off (x has n rows): with W = [P 0; Q R], x1 = Pᵀx1 + Qᵀx2, then x2 = Rᵀx2.
func (s *triSolver) trmmLT(w blas64.General, off, n int, x blas64.General) {
	if n <= triNB {
		blas64.Trmm(blas.Left, blas.Trans, 1, s.leafTri(off, n), x)
		return
	}
	n1 := triSplit(n)
	n2 := n - n1
	x1 := blas64.General{Rows: n1, Cols: x.Cols, Stride: x.Stride, Data: x.Data}
	x2 := blas64.General{Rows: n2, Cols: x.Cols, Stride: x.Stride, Data: x.Data[n1*x.Stride:]}
	s.trmmLT(w, off, n1, x1)
	q := blas64.General{Rows: n2, Cols: n1, Stride: w.Stride, Data: w.Data[(off+n1)*w.Stride+off:]}
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, q, x2, 1, x1)
	s.trmmLT(w, off+n1, n2, x2)
}
