package asm

import "math"

// Pure-Go versions of the vector kernels. They define the semantics the
// assembly must reproduce, serve as the generic path (noasm tag, other
// architectures) and finish the tails that are shorter than one vector.

// expMapGo sets dst[j] = amp·exp(min(0, alpha·dst[j] + nb[j] + s)).
// The clamp at 0 removes the rounding that can push a GEMM-formulated
// -c·|x-x'|² above zero. NaN propagates. len(nb) >= len(dst).
func expMapGo(dst, nb []float64, s, alpha, amp float64) {
	nb = nb[:len(dst)]
	for j, v := range dst {
		x := alpha*v + nb[j] + s
		if x > 0 {
			x = 0
		}
		dst[j] = amp * math.Exp(x)
	}
}

// sqdMapGo sets dst[j] = max(0, alpha·dst[j] + nb[j] + s); NaN propagates.
func sqdMapGo(dst, nb []float64, s, alpha float64) {
	nb = nb[:len(dst)]
	for j, v := range dst {
		x := alpha*v + nb[j] + s
		if x < 0 {
			x = 0
		}
		dst[j] = x
	}
}

// powMapGo sets dst[j] = amp·(g·dst[j] + off)^p for p >= 0.
func powMapGo(dst []float64, g, off, amp float64, p int) {
	for j, v := range dst {
		dst[j] = amp * powi(g*v+off, p)
	}
}

// sqdTileGo computes the 4×w tile dst[r*ldd+jj] = |a_r - b_jj|² for the rows
// a[r*lda:][:d], r < 4, and the w columns packed in bp (element k of column
// jj at bp[k*w+jj]). lda may be 0 (four copies of one row).
func sqdTileGo(dst []float64, ldd int, a []float64, lda int, bp []float64, d, w int) {
	if w == 4 {
		sqdTile4Go(dst, ldd, a, lda, bp, d)
		return
	}
	var acc [16]float64
	for r := 0; r < 4; r++ {
		s := acc[:w]
		clear(s)
		ar := a[r*lda : r*lda+d]
		for k, v := range ar {
			pk := bp[k*w : k*w+w]
			for jj, u := range pk {
				t := v - u
				s[jj] += t * t
			}
		}
		copy(dst[r*ldd:r*ldd+w], s)
	}
}

// sqdTile4Go is sqdTileGo for w = 4 with the four sums of a row in
// registers (the generic path's tile width).
func sqdTile4Go(dst []float64, ldd int, a []float64, lda int, bp []float64, d int) {
	bp = bp[:4*d]
	for r := 0; r < 4; r++ {
		ar := a[r*lda : r*lda+d]
		var s0, s1, s2, s3 float64
		for k, v := range ar {
			pk := bp[4*k : 4*k+4 : 4*k+4]
			t0, t1, t2, t3 := v-pk[0], v-pk[1], v-pk[2], v-pk[3]
			s0 += t0 * t0
			s1 += t1 * t1
			s2 += t2 * t2
			s3 += t3 * t3
		}
		o := dst[r*ldd : r*ldd+4 : r*ldd+4]
		o[0], o[1], o[2], o[3] = s0, s1, s2, s3
	}
}

// dotTileGo computes the 4×w tile dst[r*ldd+jj] = a_r·b_jj, operands as
// sqdTileGo.
func dotTileGo(dst []float64, ldd int, a []float64, lda int, bp []float64, d, w int) {
	var acc [16]float64
	for r := 0; r < 4; r++ {
		s := acc[:w]
		clear(s)
		ar := a[r*lda : r*lda+d]
		for k, v := range ar {
			pk := bp[k*w : k*w+w]
			for jj, u := range pk {
				s[jj] += v * u
			}
		}
		copy(dst[r*ldd:r*ldd+w], s)
	}
}

// powi returns x^p for integer p >= 0 by repeated squaring (the same
// operation order as the assembly).
func powi(x float64, p int) float64 {
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
