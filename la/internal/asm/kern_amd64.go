//go:build !noasm

package asm

// Assembly kernels (kern_amd64.s). Each processes len(dst) rounded down to
// its vector width (the dispatchers below pad the tail).
//
// exp, AVX2: x = n·ln2 + r, |r| <= ln2/2, a degree-13 Taylor polynomial for
// e^r in Horner form with FMA, and 2^n built in the exponent field; results
// below the smallest normal (x < -708.39) are flushed to 0.
// exp, AVX-512: x = (16m + j)·ln2/16 + r, |r| <= ln2/32, a 16-entry table
// of 2^(j/16) held in two registers (VPERMI2PD), a degree-7 polynomial, and
// 2^m by VSCALEFPD, which keeps gradual underflow. Both are within 2 ulp of
// math.Exp on [-708, 0] (TestExpMapULPSweep).

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

// The dispatchers run the assembly on whole vectors and then on the tail,
// padded to one vector in a local buffer, so that every element goes
// through the same code: equal inputs give bitwise equal outputs wherever
// they sit in a row (K(X,X) computed in full is then exactly symmetric).

// ExpMap sets dst[j] = amp·exp(min(0, alpha·dst[j] + nb[j] + s)); NaN
// propagates. len(nb) >= len(dst).
func ExpMap(dst, nb []float64, s, alpha, amp float64) {
	nb = nb[:len(dst)]
	if cur != AVX512 && cur != AVX2 {
		expMapGo(dst, nb, s, alpha, amp)
		return
	}
	n := len(dst) &^ (vecLen() - 1)
	if n > 0 {
		expMapVec(dst[:n], nb[:n], s, alpha, amp)
	}
	if n < len(dst) {
		var tx, tb [8]float64
		m := copy(tx[:], dst[n:])
		copy(tb[:], nb[n:])
		expMapVec(tx[:vecLen()], tb[:vecLen()], s, alpha, amp)
		copy(dst[n:], tx[:m])
	}
}

// The dispatchers call the assembly directly, not through a function
// value, so that escape analysis keeps the tail's buffers on the stack.

func expMapVec(dst, nb []float64, s, alpha, amp float64) {
	if cur == AVX512 {
		expMapAVX512(dst, nb, s, alpha, amp)
		return
	}
	expMapAVX2(dst, nb, s, alpha, amp)
}

// SqdMap sets dst[j] = max(0, alpha·dst[j] + nb[j] + s); NaN propagates.
func SqdMap(dst, nb []float64, s, alpha float64) {
	nb = nb[:len(dst)]
	if cur != AVX512 && cur != AVX2 {
		sqdMapGo(dst, nb, s, alpha)
		return
	}
	n := len(dst) &^ (vecLen() - 1)
	if n > 0 {
		sqdMapVec(dst[:n], nb[:n], s, alpha)
	}
	if n < len(dst) {
		var tx, tb [8]float64
		m := copy(tx[:], dst[n:])
		copy(tb[:], nb[n:])
		sqdMapVec(tx[:vecLen()], tb[:vecLen()], s, alpha)
		copy(dst[n:], tx[:m])
	}
}

func sqdMapVec(dst, nb []float64, s, alpha float64) {
	if cur == AVX512 {
		sqdMapAVX512(dst, nb, s, alpha)
		return
	}
	sqdMapAVX2(dst, nb, s, alpha)
}

// PowMap sets dst[j] = amp·(g·dst[j] + off)^p, p >= 0.
func PowMap(dst []float64, g, off, amp float64, p int) {
	if cur != AVX512 && cur != AVX2 {
		powMapGo(dst, g, off, amp, p)
		return
	}
	n := len(dst) &^ (vecLen() - 1)
	if n > 0 {
		powMapVec(dst[:n], g, off, amp, p)
	}
	if n < len(dst) {
		var tx [8]float64
		m := copy(tx[:], dst[n:])
		powMapVec(tx[:vecLen()], g, off, amp, p)
		copy(dst[n:], tx[:m])
	}
}

func powMapVec(dst []float64, g, off, amp float64, p int) {
	if cur == AVX512 {
		powMapAVX512(dst, g, off, amp, p)
		return
	}
	powMapAVX2(dst, g, off, amp, p)
}

// vecLen is the number of float64 per vector of the current path.
func vecLen() int {
	if cur == AVX512 {
		return 8
	}
	return 4
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
