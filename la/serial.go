package la

import (
	"gonum.org/v1/gonum/blas/blas64"
)

// Serial kernels: the operations of a GP prediction (a cross-covariance
// block, the mean K* α, the solve L⁻¹ K*ᵀ and the row norms of its result)
// computed on the calling goroutine alone, with no BLAS call and no
// worker pool. A service that predicts from many goroutines at once runs
// one of these per goroutine and so gets one core per call without any
// process-wide setting: OpenBLAS's thread count is process-wide, and its
// multi-threaded calls contend for one thread pool when they run at the
// same time (docs/performance.md, "Concurrent prediction").
//
// They are built on the same 4×TileWidth() inner-product and
// squared-distance tiles as the direct Gram kernels (la/internal/asm:
// AVX-512, AVX2, NEON, or the pure-Go tiles under -tags noasm or on the
// generic path). Their results depend on the SIMD path, never on the
// thread settings or on how many goroutines call them.

// serialBlocks calls f(k) for k in [0, n) on the calling goroutine.
func serialBlocks(n int, f func(k int)) {
	for k := 0; k < n; k++ {
		f(k)
	}
}

// SerialGramSETo is GramSETo on the calling goroutine alone: always the
// direct tile kernel (no DGEMM), whole block computed (no mirroring).
func SerialGramSETo(dst, a, b blas64.General, amp, c float64) { gramSE(dst, a, b, amp, c, true) }

// SerialGramPolyTo is GramPolyTo on the calling goroutine alone, through
// the inner-product tile kernel.
func SerialGramPolyTo(dst, a, b blas64.General, amp, g, off float64, p int) {
	gramPoly(dst, a, b, amp, g, off, p, true)
}

// SerialDotTo is DotTo on the calling goroutine alone, through the
// inner-product tile kernel.
func SerialDotTo(dst, a, b blas64.General) { dotTo(dst, a, b, true) }

// SerialDot returns x·y (len(y) >= len(x)) with four running sums, a
// fixed order of operations (dotUnitary).
func SerialDot(x, y []float64) float64 { return dotUnitary(x, y) }

// SerialMulVecTo sets dst[i] = a_i·x for the rows a_i of a (a.Rows ×
// a.Cols, len(x) >= a.Cols, len(dst) >= a.Rows): DGEMV without BLAS.
func SerialMulVecTo(dst []float64, a blas64.General, x []float64) {
	if len(dst) < a.Rows || len(x) < a.Cols {
		panic("la: SerialMulVecTo: length mismatch")
	}
	for i := range a.Rows {
		dst[i] = SerialDot(x[:a.Cols], a.Data[i*a.Stride:i*a.Stride+a.Cols])
	}
}
