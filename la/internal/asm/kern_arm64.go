//go:build !noasm

package asm

// Assembly kernels (kern_arm64.s), two float64 per Advanced SIMD register.
// Each processes len(dst) rounded down to an even length (the dispatchers
// pad the tail). The exp is the algorithm of the
// AVX2 path (kern_amd64.go): results below the smallest normal
// (x < -708.39) are flushed to 0.

//go:noescape
func expMapNEON(dst, nb []float64, s, alpha, amp float64)

//go:noescape
func sqdMapNEON(dst, nb []float64, s, alpha float64)

//go:noescape
func powMapNEON(dst []float64, scale, off, amp float64, p int)

// sqdTileNEON computes a 4×4 squared-distance tile; see sqdTileGo.
//
//go:noescape
func sqdTileNEON(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)

// dotTileNEON computes a 4×4 inner-product tile; see dotTileGo.
//
//go:noescape
func dotTileNEON(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)

// The dispatchers run the assembly on whole vectors and then on the tail,
// padded to one vector, so that every element goes through the same code
// (see kern_amd64.go).

// ExpMap sets dst[j] = amp·exp(min(0, alpha·dst[j] + nb[j] + s)); NaN
// propagates. len(nb) >= len(dst).
func ExpMap(dst, nb []float64, s, alpha, amp float64) {
	nb = nb[:len(dst)]
	if cur != NEON {
		expMapGo(dst, nb, s, alpha, amp)
		return
	}
	n := len(dst) &^ 1
	if n > 0 {
		expMapNEON(dst[:n], nb[:n], s, alpha, amp)
	}
	if n < len(dst) {
		tx, tb := [2]float64{dst[n]}, [2]float64{nb[n]}
		expMapNEON(tx[:], tb[:], s, alpha, amp)
		dst[n] = tx[0]
	}
}

// SqdMap sets dst[j] = max(0, alpha·dst[j] + nb[j] + s); NaN propagates.
func SqdMap(dst, nb []float64, s, alpha float64) {
	nb = nb[:len(dst)]
	if cur != NEON {
		sqdMapGo(dst, nb, s, alpha)
		return
	}
	n := len(dst) &^ 1
	if n > 0 {
		sqdMapNEON(dst[:n], nb[:n], s, alpha)
	}
	if n < len(dst) {
		tx, tb := [2]float64{dst[n]}, [2]float64{nb[n]}
		sqdMapNEON(tx[:], tb[:], s, alpha)
		dst[n] = tx[0]
	}
}

// PowMap sets dst[j] = amp·(g·dst[j] + off)^p, p >= 0.
func PowMap(dst []float64, g, off, amp float64, p int) {
	if cur != NEON {
		powMapGo(dst, g, off, amp, p)
		return
	}
	n := len(dst) &^ 1
	if n > 0 {
		powMapNEON(dst[:n], g, off, amp, p)
	}
	if n < len(dst) {
		tx := [2]float64{dst[n]}
		powMapNEON(tx[:], g, off, amp, p)
		dst[n] = tx[0]
	}
}

// TileWidth is the number of columns of SqdTile's tile (its panel width).
func TileWidth() int { return 4 }

// SqdTile computes the 4×TileWidth() tile described at sqdTileGo. The
// callers guarantee the extents: 4 rows of dst (stride ldd) and of a
// (stride lda, which may be 0), d·w packed values.
func SqdTile(dst []float64, ldd int, a []float64, lda int, bp []float64, d int) {
	const w = 4
	_ = dst[3*ldd+w-1]
	_ = a[3*lda+d-1]
	_ = bp[d*w-1]
	if cur == NEON {
		sqdTileNEON(&dst[0], ldd, &a[0], lda, &bp[0], d)
		return
	}
	sqdTileGo(dst, ldd, a, lda, bp, d, w)
}

// DotTile computes the 4×TileWidth() tile of inner products a_r·b_jj,
// operands as SqdTile.
func DotTile(dst []float64, ldd int, a []float64, lda int, bp []float64, d int) {
	const w = 4
	_ = dst[3*ldd+w-1]
	_ = a[3*lda+d-1]
	_ = bp[d*w-1]
	if cur == NEON {
		dotTileNEON(&dst[0], ldd, &a[0], lda, &bp[0], d)
		return
	}
	dotTileGo(dst, ldd, a, lda, bp, d, w)
}
