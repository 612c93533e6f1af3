package la

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/passgp-fast/passgp-fast/la/internal/asm"
)

// Gram kernels. Each fills dst (n1×n2) from the rows of a (n1×d) and b
// (n2×d); dst must not share memory with a or b. Two formulations exist:
//
//   - gemm: one DGEMM (or DSYRK when a and b are the same matrix) for the
//     inner products, then a vectorised elementwise pass that forms
//     |a_i|² + |b_j|² - 2 a_i·b_j, clamps it at 0 and applies exp or the
//     integer power. Fast for large d; the distance loses relative accuracy
//     for near-identical points (absolute error up to 4(d+2)ε(|a_i|²+|b_j|²)).
//   - direct: register-tiled assembly kernels that sum (a_ik - b_jk)² (or
//     a_ik·b_jk) themselves, then the same elementwise pass. No
//     cancellation, and no DGEMM packing overhead, which dominates for
//     small d.
//
// SqDistTo and GramSETo pick direct for d up to DirectMaxD() and gemm above;
// DotTo and GramPolyTo use gemm (no cancellation to avoid) except with
// gonum's pure-Go BLAS, where the inner-product tile kernel is faster. When
// a and b are the same matrix (same backing array, shape and stride), the
// gemm path computes the upper triangle with DSYRK and mirrors it, and the
// direct path computes the whole square (small d) or the upper tiles and
// mirrors them; K(X,X) is exactly symmetric and its diagonal exact
// (distance 0) either way. See docs/performance.md, "Gram kernels", for the
// measurements behind the crossovers.

// GramMethod selects the formulation of the Gram kernels (for DotTo and
// GramPolyTo, direct means the inner-product tile kernel).
type GramMethod int

const (
	GramAuto   GramMethod = iota // by d, backend and SIMD path (DirectMaxD)
	GramDirect                   // always the direct tile kernel
	GramGEMM                     // always DGEMM/DSYRK plus the elementwise pass
)

// gramMode is the forced formulation; modeAuto chooses by d.
var gramMode = modeAuto

const (
	modeAuto   = GramAuto
	modeDirect = GramDirect
	modeGEMM   = GramGEMM
)

// SetGramMethod forces the formulation of the Gram kernels (for
// benchmarks and experiments) and returns the previous setting. It must not
// be called concurrently with the Gram kernels.
func SetGramMethod(m GramMethod) GramMethod {
	old := gramMode
	gramMode = m
	return old
}

// directMaxD is the largest d for which SqDistTo and GramSETo use the direct
// kernel, for a cross block (sym false) or K(X,X) (sym true), from the
// single-core crossovers measured on the project machine
// (docs/performance.md, "Gram kernels"):
//
//   - OpenBLAS, SIMD path: 32 for cross blocks (AVX-512 breaks even between
//     d = 32 and 48) and 128 for K(X,X), where the direct path saves
//     the transposing copy that follows DSYRK (NEON, unmeasured, is given
//     the same values);
//   - OpenBLAS, generic path: 0, since OpenBLAS beats the pure-Go tile loop
//     at every d and the elementwise exp costs the same;
//   - gonum's pure-Go BLAS (purego tag or CGO_ENABLED=0), SIMD path: every
//     d, since the assembly tile kernel is 3-4 times faster than gonum's
//     DGEMM even at d = 784;
//   - gonum's BLAS, generic path: 24 (break-even near d = 32).
func directMaxD(sym bool) int {
	generic := asm.Current() == asm.Generic
	switch {
	case Backend == "gonum" && generic:
		return 24
	case Backend == "gonum":
		return math.MaxInt
	case generic:
		return 0
	case sym:
		return 128
	}
	return 32
}

// DirectMaxD reports the largest input dimension d for which SqDistTo and
// GramSETo use the direct (non-GEMM) kernel on this machine and build, for
// cross blocks K(X1, X2) and for K(X, X).
func DirectMaxD() (cross, sym int) { return directMaxD(false), directMaxD(true) }

func useDirect(d int, sym bool) bool {
	switch gramMode {
	case modeDirect:
		return true
	case modeGEMM:
		return false
	}
	return d <= directMaxD(sym)
}

// useDirectDot reports whether DotTo and GramPolyTo use the inner-product
// tile kernel instead of DGEMM: only with gonum's pure-Go BLAS and a SIMD
// path, where the assembly tile is several times faster than gonum's DGEMM.
// OpenBLAS's DGEMM is the better inner-product kernel at every d.
func useDirectDot() bool {
	switch gramMode {
	case modeDirect:
		return true
	case modeGEMM:
		return false
	}
	return Backend == "gonum" && asm.Current() != asm.Generic
}

// checkGram panics unless a (n1×d), b (n2×d) and dst (n1×n2) agree.
func checkGram(dst, a, b blas64.General) {
	if a.Cols != b.Cols {
		panic("la: input dimension mismatch")
	}
	if dst.Rows != a.Rows || dst.Cols != b.Rows {
		panic("la: destination shape mismatch")
	}
}

// same reports whether a and b are the same matrix, the symmetric case
// K(X, X).
func same(a, b blas64.General) bool {
	return a.Rows == b.Rows && a.Cols == b.Cols && a.Stride == b.Stride &&
		a.Rows > 0 && a.Cols > 0 && &a.Data[0] == &b.Data[0]
}

// DotTo sets dst = a bᵀ: dst[i,j] = a_i·b_j for the rows of a and b.
func DotTo(dst, a, b blas64.General) { dotTo(dst, a, b, false) }

// dotTo is DotTo, and with serial SerialDotTo: the direct tile kernel on
// the calling goroutine, whole block computed.
func dotTo(dst, a, b blas64.General, serial bool) {
	checkGram(dst, a, b)
	if a.Rows == 0 || b.Rows == 0 {
		return
	}
	if a.Cols == 0 {
		zero(dst)
		return
	}
	sym := !serial && same(a, b)
	switch {
	case serial:
		tileDirectOn(serialBlocks, dst, a, b, false, true, nil)
	case useDirectDot():
		tileDirect(dst, a, b, sym, true, nil)
	case sym:
		syrkUpper(dst, a, 1)
		mirrorUpper(dst)
	default:
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, b, 0, dst)
	}
}

// SqDistTo sets dst[i,j] = |a_i - b_j|² for the rows of a and b.
// Results are clamped at zero (the GEMM formulation can round below it);
// for a == b the diagonal is exactly zero.
func SqDistTo(dst, a, b blas64.General) {
	checkGram(dst, a, b)
	if a.Rows == 0 || b.Rows == 0 {
		return
	}
	if a.Cols == 0 {
		zero(dst)
		return
	}
	sym := same(a, b)
	if useDirect(a.Cols, sym) {
		tileDirect(dst, a, b, sym, false, nil)
		return
	}
	wp := GetScratch(a.Rows + b.Rows)
	ws := *wp
	na, nb := ws[:a.Rows], ws[a.Rows:]
	rowSqNorms(na, a, 1)
	rowSqNorms(nb, b, 1)
	if sym {
		syrkUpper(dst, a, -2)
	} else {
		blas64.Gemm(blas.NoTrans, blas.Trans, -2, a, b, 0, dst)
	}
	forRows(dst.Rows, sym, func(i int) {
		j0 := 0
		if sym {
			j0 = i
		}
		r := dst.Data[i*dst.Stride+j0 : i*dst.Stride+dst.Cols]
		asm.SqdMap(r, nb[j0:], na[i], 1)
		if sym {
			r[0] = 0
		}
	})
	PutScratch(wp)
	if sym {
		mirrorUpper(dst)
	}
}

// GramSETo sets dst[i,j] = amp·exp(-c·|a_i - b_j|²), the squared-exponential
// Gram block (c = 1/(2ℓ²)).
func GramSETo(dst, a, b blas64.General, amp, c float64) { gramSE(dst, a, b, amp, c, false) }

// gramSE is GramSETo, and with serial SerialGramSETo: the direct tile
// kernel on the calling goroutine, whole block computed.
func gramSE(dst, a, b blas64.General, amp, c float64, serial bool) {
	checkGram(dst, a, b)
	if a.Rows == 0 || b.Rows == 0 {
		return
	}
	if a.Cols == 0 {
		fill(dst, amp)
		return
	}
	sym := !serial && same(a, b)
	if serial || useDirect(a.Cols, sym) {
		wp := GetScratch(b.Rows)
		ws := *wp
		clear(ws)
		tileDirectOn(blocksFor(serial), dst, a, b, sym, false, func(r []float64) {
			asm.ExpMap(r, ws, 0, -c, amp)
		})
		PutScratch(wp)
		return
	}
	// -c|a_i - b_j|² = 2c a_i·b_j - c|a_i|² - c|b_j|²: DGEMM with alpha 2c,
	// then the fused add/clamp/exp pass.
	wp := GetScratch(a.Rows + b.Rows)
	ws := *wp
	na, nb := ws[:a.Rows], ws[a.Rows:]
	rowSqNorms(na, a, -c)
	rowSqNorms(nb, b, -c)
	if sym {
		syrkUpper(dst, a, 2*c)
	} else {
		blas64.Gemm(blas.NoTrans, blas.Trans, 2*c, a, b, 0, dst)
	}
	forRows(dst.Rows, sym, func(i int) {
		j0 := 0
		if sym {
			j0 = i
		}
		r := dst.Data[i*dst.Stride+j0 : i*dst.Stride+dst.Cols]
		asm.ExpMap(r, nb[j0:], na[i], 1, amp)
		if sym {
			r[0] = amp
		}
	})
	PutScratch(wp)
	if sym {
		mirrorUpper(dst)
	}
}

// GramPolyTo sets dst[i,j] = amp·(g·a_i·b_j + off)^p, the polynomial Gram
// block. p must be >= 0.
func GramPolyTo(dst, a, b blas64.General, amp, g, off float64, p int) {
	gramPoly(dst, a, b, amp, g, off, p, false)
}

// gramPoly is GramPolyTo, and with serial SerialGramPolyTo: the direct
// tile kernel on the calling goroutine, whole block computed.
func gramPoly(dst, a, b blas64.General, amp, g, off float64, p int, serial bool) {
	checkGram(dst, a, b)
	if p < 0 {
		panic("la: negative polynomial degree")
	}
	if a.Rows == 0 || b.Rows == 0 {
		return
	}
	if a.Cols == 0 {
		fill(dst, amp*Powi(off, p))
		return
	}
	sym := !serial && same(a, b)
	if serial || useDirectDot() {
		tileDirectOn(blocksFor(serial), dst, a, b, sym, true, func(r []float64) {
			asm.PowMap(r, g, off, amp, p)
		})
		return
	}
	if sym {
		syrkUpper(dst, a, 1)
	} else {
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, b, 0, dst)
	}
	forRows(dst.Rows, sym, func(i int) {
		j0 := 0
		if sym {
			j0 = i
		}
		asm.PowMap(dst.Data[i*dst.Stride+j0:i*dst.Stride+dst.Cols], g, off, amp, p)
	})
	if sym {
		mirrorUpper(dst)
	}
}

// syrkUpper sets the upper triangle of the square dst to alpha·a aᵀ.
func syrkUpper(dst, a blas64.General, alpha float64) {
	blas64.Syrk(blas.NoTrans, alpha, a, 0, blas64.Symmetric{
		Uplo: blas.Upper, N: dst.Rows, Data: dst.Data, Stride: dst.Stride,
	})
}

// rowSqNorms sets dst[i] = scale·|a_i|².
func rowSqNorms(dst []float64, a blas64.General, scale float64) {
	for i := range dst {
		var s float64
		for _, v := range row(a, i) {
			s += v * v
		}
		dst[i] = scale * s
	}
}

// tileDirect sets dst to the squared distances (dot false) or the inner
// products (dot true) with the tile kernels, then calls fin (if not nil) on
// each finished row segment. Rows are processed in blocks of four by
// Threads() workers.
//
// For sym (a == b) and d > mirrorMinD only the tiles on and above the
// diagonal are computed, fin sees the rows from the diagonal on, and the
// lower triangle is mirrored. For smaller d the whole square is computed:
// the transposing copy costs more than the tiles it saves (about 2.5 ns per
// element for n = 2000 on the project machine, where a tile element costs
// about 0.05·d ns). The result is exactly symmetric either way, since the
// kernels give bitwise equal results for (i, j) and (j, i).
func tileDirect(dst, a, b blas64.General, sym, dot bool, fin func(r []float64)) {
	tileDirectOn(forBlocks, dst, a, b, sym, dot, fin)
}

// blocksFor returns serialBlocks for serial work, else forBlocks.
func blocksFor(serial bool) func(n int, f func(k int)) {
	if serial {
		return serialBlocks
	}
	return forBlocks
}

// tileDirectOn is tileDirect with the work units run by each: forBlocks
// (Threads() workers) or serialBlocks (the calling goroutine alone).
func tileDirectOn(each func(n int, f func(k int)), dst, a, b blas64.General, sym, dot bool, fin func(r []float64)) {
	tile := asm.SqdTile
	if dot {
		tile = asm.DotTile
	}
	w := asm.TileWidth()
	n1, n2, d := a.Rows, b.Rows, a.Cols
	tri := sym && d > mirrorMinD
	np := (n2 + w - 1) / w
	bpp := GetScratch(np * w * d)
	bp := *bpp
	// Pack b in panels of w columns: element (k, jj) of panel p at
	// bp[p*w*d + k*w + jj], zero padded.
	for p := 0; p < np; p++ {
		pan := bp[p*w*d : (p+1)*w*d]
		clear(pan)
		for jj := 0; jj < w && p*w+jj < n2; jj++ {
			for k, v := range row(b, p*w+jj) {
				pan[k*w+jj] = v
			}
		}
	}
	ld := dst.Stride
	// Work unit: a chunk of rows, walked panel by panel so that a panel
	// (w·d values) is reused from cache by every 4-row block of the chunk,
	// instead of all of packed b streaming through for each block.
	chunk := rowChunk(d)
	each((n1+chunk-1)/chunk, func(c int) {
		var scratch [4 * 16]float64
		c0, c1 := c*chunk, min(n1, (c+1)*chunk)
		for p := 0; p < np; p++ {
			j0 := p * w
			if tri && j0+w <= c0 {
				continue // entirely below the diagonal
			}
			cols := min(w, n2-j0)
			pan := bp[p*w*d : (p+1)*w*d]
			for i0 := c0; i0 < c1; i0 += 4 {
				if tri && j0+w <= i0 {
					continue
				}
				rows := min(4, c1-i0)
				switch {
				case rows == 4 && cols == w:
					tile(dst.Data[i0*ld+j0:], ld, a.Data[i0*a.Stride:], a.Stride, pan, d)
				case rows == 4:
					tile(scratch[:], w, a.Data[i0*a.Stride:], a.Stride, pan, d)
					for r := 0; r < 4; r++ {
						copy(dst.Data[(i0+r)*ld+j0:(i0+r)*ld+j0+cols], scratch[r*w:])
					}
				default:
					for r := 0; r < rows; r++ {
						tile(scratch[:], w, a.Data[(i0+r)*a.Stride:], 0, pan, d)
						copy(dst.Data[(i0+r)*ld+j0:(i0+r)*ld+j0+cols], scratch[:cols])
					}
				}
			}
		}
		if fin == nil {
			return
		}
		for i := c0; i < c1; i++ {
			j0 := 0
			if tri {
				j0 = i
			}
			fin(dst.Data[i*ld+j0 : i*ld+n2])
		}
	})
	PutScratch(bpp)
	if tri {
		mirrorUpper(dst)
	}
}

// rowChunk is the number of rows per work unit of tileDirect: a multiple of
// 4 with the chunk's rows of a (chunk·d values) within about 256 KiB, so
// that they and the current panel stay in the 2 MiB L2 (at least 4 rows,
// at most 64 so that the threads get enough units).
func rowChunk(d int) int {
	c := (256 << 10) / 8 / max(d, 1)
	return max(4, min(64, c&^3))
}

// mirrorMinD is the smallest d for which the symmetric direct path computes
// one triangle and mirrors it (see tileDirect).
const mirrorMinD = 64

// mirrorUpper copies the strict upper triangle of the square dst into the
// lower one. The copy goes by 16×16 blocks, reading rows of the upper
// block and writing columns of the lower one, so that both stay in L1.
func mirrorUpper(dst blas64.General) {
	const nb = 16
	n, ld := dst.Rows, dst.Stride
	forBlocks((n+nb-1)/nb, func(bi int) {
		// Block row bi of the lower triangle: rows i0..i1-1, columns j < i.
		i0 := bi * nb
		i1 := min(n, i0+nb)
		for j0 := 0; j0 < i1; j0 += nb {
			j1 := min(j0+nb, i1)
			for j := j0; j < j1; j++ {
				src := dst.Data[j*ld : j*ld+n]
				for i := max(i0, j+1); i < i1; i++ {
					dst.Data[i*ld+j] = src[i]
				}
			}
		}
	})
}

func fill(dst blas64.General, v float64) {
	for i := 0; i < dst.Rows; i++ {
		r := row(dst, i)
		for j := range r {
			r[j] = v
		}
	}
}

func zero(dst blas64.General) {
	for i := 0; i < dst.Rows; i++ {
		clear(dst.Data[i*dst.Stride : i*dst.Stride+dst.Cols])
	}
}

func row(m blas64.General, i int) []float64 {
	return m.Data[i*m.Stride : i*m.Stride+m.Cols]
}

// sqDistRef is the pure-Go reference: direct differences, no cancellation.
func sqDistRef(dst, a, b blas64.General) {
	for i := 0; i < a.Rows; i++ {
		ai := row(a, i)
		di := row(dst, i)
		for j := 0; j < b.Rows; j++ {
			bj := row(b, j)
			var s float64
			for k, v := range ai {
				t := v - bj[k]
				s += t * t
			}
			di[j] = s
		}
	}
}

func gramSERef(dst, a, b blas64.General, amp, c float64) {
	sqDistRef(dst, a, b)
	for i := 0; i < dst.Rows; i++ {
		di := row(dst, i)
		for j, v := range di {
			di[j] = amp * math.Exp(-c*v)
		}
	}
}

func gramPolyRef(dst, a, b blas64.General, amp, g, off float64, p int) {
	for i := 0; i < a.Rows; i++ {
		ai := row(a, i)
		di := row(dst, i)
		for j := 0; j < b.Rows; j++ {
			bj := row(b, j)
			var s float64
			for k, v := range ai {
				s += v * bj[k]
			}
			di[j] = amp * Powi(g*s+off, p)
		}
	}
}

// Powi returns x^p for integer p >= 0 by repeated squaring (the scalar
// reference of the polynomial Gram map).
func Powi(x float64, p int) float64 {
	r := 1.0
	for p > 0 {
		if p&1 == 1 {
			r *= x
		}
		x *= x
		p >>= 1
	}
	return r
}
