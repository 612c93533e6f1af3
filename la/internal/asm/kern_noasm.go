//go:build noasm || !(amd64 || arm64)

package asm

// ExpMap sets dst[j] = amp·exp(min(0, alpha·dst[j] + nb[j] + s)).
func ExpMap(dst, nb []float64, s, alpha, amp float64) { expMapGo(dst, nb, s, alpha, amp) }

// SqdMap sets dst[j] = max(0, alpha·dst[j] + nb[j] + s).
func SqdMap(dst, nb []float64, s, alpha float64) { sqdMapGo(dst, nb, s, alpha) }

// PowMap sets dst[j] = amp·(g·dst[j] + off)^p, p >= 0.
func PowMap(dst []float64, g, off, amp float64, p int) { powMapGo(dst, g, off, amp, p) }

// TileWidth is the number of columns of SqdTile's tile.
func TileWidth() int { return 4 }

// SqdTile computes the 4×TileWidth() tile described at sqdTileGo.
func SqdTile(dst []float64, ldd int, a []float64, lda int, bp []float64, d int) {
	sqdTileGo(dst, ldd, a, lda, bp, d, 4)
}

// DotTile computes the 4×TileWidth() tile of inner products a_r·b_jj.
func DotTile(dst []float64, ldd int, a []float64, lda int, bp []float64, d int) {
	dotTileGo(dst, ldd, a, lda, bp, d, 4)
}
