//go:build !noasm

package asm

// Assembly kernels (gram_amd64.s). Each processes len(dst) rounded down to
// its vector width; the Go dispatchers below finish the tail with the
// generic code. The exp in expMap* is range reduction x = n·ln2 + r,
// |r| <= ln2/2, a degree-13 Taylor polynomial for e^r in Horner form with
// FMA, and scaling by 2^n (VSCALEFPD on AVX-512, exponent-field arithmetic
// on AVX2, where results below the smallest normal, x < -708.39, are
// flushed to 0).

//go:noescape
func expMapAVX512(dst, nb []float64, s, alpha, amp float64)

//go:noescape
func expMapAVX2(dst, nb []float64, s, alpha, amp float64)

//go:noescape
func sqdMapAVX512(dst, nb []float64, s, alpha float64)

//go:noescape
func sqdMapAVX2(dst, nb []float64, s, alpha float64)

//go:noescape
func powMapAVX512(dst []float64, scale, off, amp float64, p int)

//go:noescape
func powMapAVX2(dst []float64, scale, off, amp float64, p int)

// sqdTileAVX512 computes a 4×16 squared-distance tile, sqdTileAVX2 a 4×8
// one; see sqdTileGo for the operands.
//
//go:noescape
func sqdTileAVX512(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)

//go:noescape
func sqdTileAVX2(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)

// dotTileAVX512 and dotTileAVX2 compute inner-product tiles of the same
// shapes; see dotTileGo.
//
//go:noescape
func dotTileAVX512(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)

//go:noescape
func dotTileAVX2(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)

// ExpMap sets dst[j] = amp·exp(min(0, alpha·dst[j] + nb[j] + s)); NaN
// propagates. len(nb) >= len(dst).
func ExpMap(dst, nb []float64, s, alpha, amp float64) {
	nb = nb[:len(dst)]
	n := 0
	switch cur {
	case AVX512:
		n = len(dst) &^ 7
		if n > 0 {
			expMapAVX512(dst[:n], nb[:n], s, alpha, amp)
		}
	case AVX2:
		n = len(dst) &^ 3
		if n > 0 {
			expMapAVX2(dst[:n], nb[:n], s, alpha, amp)
		}
	}
	expMapGo(dst[n:], nb[n:], s, alpha, amp)
}

// SqdMap sets dst[j] = max(0, alpha·dst[j] + nb[j] + s); NaN propagates.
func SqdMap(dst, nb []float64, s, alpha float64) {
	nb = nb[:len(dst)]
	n := 0
	switch cur {
	case AVX512:
		n = len(dst) &^ 7
		if n > 0 {
			sqdMapAVX512(dst[:n], nb[:n], s, alpha)
		}
	case AVX2:
		n = len(dst) &^ 3
		if n > 0 {
			sqdMapAVX2(dst[:n], nb[:n], s, alpha)
		}
	}
	sqdMapGo(dst[n:], nb[n:], s, alpha)
}

// PowMap sets dst[j] = amp·(g·dst[j] + off)^p, p >= 0.
func PowMap(dst []float64, g, off, amp float64, p int) {
	n := 0
	switch cur {
	case AVX512:
		n = len(dst) &^ 7
		if n > 0 {
			powMapAVX512(dst[:n], g, off, amp, p)
		}
	case AVX2:
		n = len(dst) &^ 3
		if n > 0 {
			powMapAVX2(dst[:n], g, off, amp, p)
		}
	}
	powMapGo(dst[n:], g, off, amp, p)
}

// TileWidth is the number of columns of SqdTile's tile (its panel width).
func TileWidth() int {
	switch cur {
	case AVX512:
		return 16
	case AVX2:
		return 8
	}
	return 4
}

// SqdTile computes the 4×TileWidth() tile described at sqdTileGo. The
// callers guarantee the extents: 4 rows of dst (stride ldd) and of a
// (stride lda, which may be 0), d·w packed values.
func SqdTile(dst []float64, ldd int, a []float64, lda int, bp []float64, d int) {
	w := TileWidth()
	_ = dst[3*ldd+w-1]
	_ = a[3*lda+d-1]
	_ = bp[d*w-1]
	switch cur {
	case AVX512:
		sqdTileAVX512(&dst[0], ldd, &a[0], lda, &bp[0], d)
	case AVX2:
		sqdTileAVX2(&dst[0], ldd, &a[0], lda, &bp[0], d)
	default:
		sqdTileGo(dst, ldd, a, lda, bp, d, w)
	}
}

// DotTile computes the 4×TileWidth() tile of inner products a_r·b_jj,
// operands as SqdTile.
func DotTile(dst []float64, ldd int, a []float64, lda int, bp []float64, d int) {
	w := TileWidth()
	_ = dst[3*ldd+w-1]
	_ = a[3*lda+d-1]
	_ = bp[d*w-1]
	switch cur {
	case AVX512:
		dotTileAVX512(&dst[0], ldd, &a[0], lda, &bp[0], d)
	case AVX2:
		dotTileAVX2(&dst[0], ldd, &a[0], lda, &bp[0], d)
	default:
		dotTileGo(dst, ldd, a, lda, bp, d, w)
	}
}
