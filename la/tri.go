package la

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// triNB is the order of the leaves of the recursive triangular solves: a
// leaf multiplies by the explicit inverse of its triNB×triNB diagonal block
// (one DTRMM). Every recursive split is a multiple of triNB, so the leaves
// are exactly the triNB×triNB diagonal blocks of the matrix (the last one
// possibly smaller). 64 rather than 128 puts more of a small factorisation
// into level-3 calls: CholeskyInvStop at n = 150 to 300, EP's size on
// small sets, takes 26 to 29% less time, and the same from n = 1000 on
// (docs/performance.md).
const triNB = 64

// cholNB is the order of the blocks that the pure-Go kernels (cholUnblocked,
// invLower) handle; a leaf of order up to triNB is split once at cholNB.
const cholNB = triNB / 2

// triSplit returns where a recursion on n > triNB rows splits: the multiple
// of triNB nearest to n/2 (at least triNB, less than n).
func triSplit(n int) int {
	n1 := (n/2 + triNB/2) / triNB * triNB
	if n1 < triNB {
		n1 = triNB
	}
	return n1
}

// triSolver solves with a lower triangular matrix L (row-major, stride lda)
// through recursive splitting: the off-diagonal work is DGEMM, and a leaf
// multiplies by the explicit inverse of its diagonal block (DTRMM), so that
// no call goes to OpenBLAS's DTRSM, whose kernels reach only about 40% of the
// DGEMM rate on this project's machine for the panel shapes of a Cholesky
// factorisation, where DTRMM with the same shape runs about 2.5 times as
// fast (docs/performance.md).
//
// Inverting the leaves costs about n·triNB²/3 FLOPs, small next to the n²m
// of a solve with m right-hand sides.
type triSolver struct {
	l   []float64 // L, from its element (0, 0)
	lda int
	n   int       // order of L
	inv []float64 // inverse of diagonal block k at inv[k*triNB*triNB:], stride triNB
	tmp []float64 // triNB×triNB scratch for the leaves

	// stop, when not nil, is asked between the level-3 steps of chol;
	// stopped records that it said yes.
	stop    func() bool
	stopped bool
}

// halt reports whether the factorisation is to be abandoned (stop said
// so, now or before).
func (s *triSolver) halt() bool {
	if !s.stopped && s.stop != nil && s.stop() {
		s.stopped = true
	}
	return s.stopped
}

// block returns L[i0:i0+r, j0:j0+c].
func (s *triSolver) block(i0, j0, r, c int) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: s.lda, Data: s.l[i0*s.lda+j0:]}
}

// leafInv returns the inverse of the n×n diagonal block starting at row off.
func (s *triSolver) leafInv(off, n int) blas64.General {
	return blas64.General{Rows: n, Cols: n, Stride: triNB, Data: s.inv[off*triNB:]}
}

// leafTri returns the inverse of the n×n diagonal block starting at row
// off as a lower triangular matrix, for DTRMM.
func (s *triSolver) leafTri(off, n int) blas64.Triangular {
	return blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: n, Stride: triNB, Data: s.inv[off*triNB:]}
}

// tmpMat returns an r×c scratch matrix.
func (s *triSolver) tmpMat(r, c int) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: c, Data: s.tmp[:r*c]}
}

// invertLeaves computes the inverses of all diagonal blocks of the n×n L.
func (s *triSolver) invertLeaves(n int) {
	for off := 0; off < n; off += triNB {
		s.invertLeaf(off, min(triNB, n-off))
	}
}

// invertLeaf computes the inverse of the n×n (n <= triNB) diagonal block of
// L at row off into its slot: with the block [A 0; B C] split at cholNB, the
// inverses of A and C come from invLower and the off-diagonal block is
// -C⁻¹ B A⁻¹ (two small DGEMMs).
func (s *triSolver) invertLeaf(off, n int) {
	w := s.inv[off*triNB:]
	if n <= cholNB {
		invLower(w, triNB, s.l[off*s.lda+off:], s.lda, n)
		return
	}
	n2 := n - cholNB
	invLower(w, triNB, s.l[off*s.lda+off:], s.lda, cholNB)
	invLower(w[cholNB*triNB+cholNB:], triNB, s.l[(off+cholNB)*s.lda+off+cholNB:], s.lda, n2)
	s.leafOffDiag(off, n)
}

// leafOffDiag sets the off-diagonal block of the inverse of the n×n leaf at
// row off, W21 = -W22 L21 W11, from W11 and W22 already in the slot, and
// zeros the slot's upper right block.
func (s *triSolver) leafOffDiag(off, n int) {
	w := s.inv[off*triNB:]
	n2 := n - cholNB
	for i := 0; i < cholNB; i++ {
		clear(w[i*triNB+cholNB : i*triNB+n])
	}
	w11 := blas64.General{Rows: cholNB, Cols: cholNB, Stride: triNB, Data: w}
	w22 := blas64.General{Rows: n2, Cols: n2, Stride: triNB, Data: w[cholNB*triNB+cholNB:]}
	w21 := blas64.General{Rows: n2, Cols: cholNB, Stride: triNB, Data: w[cholNB*triNB:]}
	t := s.tmpMat(n2, cholNB)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, s.block(off+cholNB, off, n2, cholNB), w11, 0, t)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, w22, t, 0, w21)
}

// rightT sets x = x L⁻ᵀ for the n×n diagonal block of L at row off
// (x has n columns).
func (s *triSolver) rightT(off, n int, x blas64.General) {
	if x.Rows == 0 {
		return
	}
	if n <= triNB {
		blas64.Trmm(blas.Right, blas.Trans, 1, s.leafTri(off, n), x)
		return
	}
	n1 := triSplit(n)
	x1 := blas64.General{Rows: x.Rows, Cols: n1, Stride: x.Stride, Data: x.Data}
	x2 := blas64.General{Rows: x.Rows, Cols: n - n1, Stride: x.Stride, Data: x.Data[n1:]}
	s.rightT(off, n1, x1)
	blas64.Gemm(blas.NoTrans, blas.Trans, -1, x1, s.block(off+n1, off, n-n1, n1), 1, x2)
	s.rightT(off+n1, n-n1, x2)
}

// leftN sets x = L⁻¹ x for the n×n diagonal block of L at row off (x has n
// rows).
func (s *triSolver) leftN(off, n int, x blas64.General) {
	if x.Cols == 0 {
		return
	}
	if n <= triNB {
		blas64.Trmm(blas.Left, blas.NoTrans, 1, s.leafTri(off, n), x)
		return
	}
	n1 := triSplit(n)
	x1 := blas64.General{Rows: n1, Cols: x.Cols, Stride: x.Stride, Data: x.Data}
	x2 := blas64.General{Rows: n - n1, Cols: x.Cols, Stride: x.Stride, Data: x.Data[n1*x.Stride:]}
	s.leftN(off, n1, x1)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, s.block(off+n1, off, n-n1, n1), x1, 1, x2)
	s.leftN(off+n1, n-n1, x2)
}

// leftT sets x = L⁻ᵀ x for the n×n diagonal block of L at row off (x has n
// rows). Lᵀ is upper triangular, so the bottom block is solved first.
func (s *triSolver) leftT(off, n int, x blas64.General) {
	if x.Cols == 0 {
		return
	}
	if n <= triNB {
		blas64.Trmm(blas.Left, blas.Trans, 1, s.leafTri(off, n), x)
		return
	}
	n1 := triSplit(n)
	x1 := blas64.General{Rows: n1, Cols: x.Cols, Stride: x.Stride, Data: x.Data}
	x2 := blas64.General{Rows: n - n1, Cols: x.Cols, Stride: x.Stride, Data: x.Data[n1*x.Stride:]}
	s.leftT(off+n1, n-n1, x2)
	blas64.Gemm(blas.Trans, blas.NoTrans, -1, s.block(off+n1, off, n-n1, n1), x2, 1, x1)
	s.leftT(off, n1, x1)
}

// invLower writes the inverse of the n×n lower triangular matrix l (stride
// lda) into the lower triangle of dst (stride ldd) and zeros its strict upper
// triangle. Row i of W = L⁻¹ follows from the rows above it,
//
//	W[i][:i] = -(Σ_{k<i} L[i][k] W[k][:i]) / L[i][i],  W[i][i] = 1/L[i][i],
//
// as contiguous AXPYs over rows of W.
func invLower(dst []float64, ldd int, l []float64, lda, n int) {
	for i := 0; i < n; i++ {
		wi := dst[i*ldd : i*ldd+n]
		li := l[i*lda : i*lda+i+1]
		clear(wi)
		// Two rows of W per pass halve the loads and stores of row i.
		k := 0
		for ; k+2 <= i; k += 2 {
			a0, a1 := li[k], li[k+1]
			w0 := dst[k*ldd : k*ldd+k+1]
			w1 := dst[(k+1)*ldd : (k+1)*ldd+k+2]
			w1 = w1[:len(w0)+1]
			wo := wi[:len(w0)]
			for j := range wo {
				wo[j] += a0*w0[j] + a1*w1[j]
			}
			wi[k+1] += a1 * w1[k+1]
		}
		for ; k < i; k++ {
			lik := li[k]
			wk := dst[k*ldd : k*ldd+k+1]
			wo := wi[:len(wk)]
			for j, v := range wk {
				wo[j] += lik * v
			}
		}
		d := 1 / li[i]
		for j := 0; j < i; j++ {
			wi[j] *= -d
		}
		wi[i] = d
	}
}

// copyGeneral copies src into dst (same shape).
func copyGeneral(dst, src blas64.General) {
	for i := 0; i < src.Rows; i++ {
		copy(dst.Data[i*dst.Stride:i*dst.Stride+src.Cols], src.Data[i*src.Stride:i*src.Stride+src.Cols])
	}
}

// triPool recycles the solvers' inverse and scratch storage, so that
// repeated factorisations and solves of the same size do not allocate.
var triPool sync.Pool

// getTriSolver returns a solver for the n×n lower triangle of l.
func getTriSolver(l blas64.General, n int) *triSolver {
	nInv := (n + triNB - 1) / triNB * triNB * triNB
	const nTmp = triNB * triNB
	s, _ := triPool.Get().(*triSolver)
	if s == nil {
		s = new(triSolver)
	}
	if cap(s.inv) < nInv {
		s.inv = make([]float64, nInv)
	}
	if cap(s.tmp) < nTmp {
		s.tmp = make([]float64, nTmp)
	}
	s.inv, s.tmp = s.inv[:nInv], s.tmp[:nTmp]
	s.l, s.lda, s.n = l.Data, l.Stride, n
	return s
}

func putTriSolver(s *triSolver) {
	s.l = nil
	s.stop, s.stopped = nil, false
	triPool.Put(s)
}
