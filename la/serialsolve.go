package la

import (
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/passgp-fast/passgp-fast/la/internal/asm"
)

// SerialSolveLowerTransRightTo is SolveLowerTransRightTo (dst = b L⁻ᵀ,
// row i of dst is L⁻¹ b_i) on the calling goroutine alone, without BLAS.
// dst may be b itself; otherwise they must not overlap.
//
// Each row is a forward substitution, x_j = (b_j − Σ_{k<j} L_jk x_k)/L_jj.
// The columns go in panels of w = asm.TileWidth(): for a panel starting
// at column j0, the sums over k < j0 of four rows at a time are one
// inner-product tile against L's rows j0..j0+w−1 (packed once per call,
// n²/2 values), which is where the n²/2 multiply-adds per row go; the
// w×w triangle within the panel is scalar (n·w/2 per row). Rows are taken
// in chunks whose values stay in L2 while the packed panels stream past.
// Every row's operations are the same wherever the row sits, so a row's
// result does not depend on the other rows.
func SerialSolveLowerTransRightTo(dst, l, b blas64.General) {
	n, m := checkSolve("SerialSolveLowerTransRightTo", dst, l, b, true)
	if n == 0 || m == 0 {
		return
	}
	copyIfDistinct(dst, b)
	w := asm.TileWidth()
	np := (n + w - 1) / w
	pk := getBuf(w * w * np * (np - 1) / 2)
	packPanels(pk, l, n, w)
	chunk := rowChunk(n)
	for c0 := 0; c0 < m; c0 += chunk {
		solveRowsT(dst, l, pk, c0, min(m, c0+chunk), n, w)
	}
	putBuf(pk)
}

// panelOff is the offset in the packed panels of panel p (w² q values for
// each panel q < p).
func panelOff(p, w int) int { return w * w * p * (p - 1) / 2 }

// packPanels packs, for each panel p (j0 = p·w), the rows j0..j0+w−1 of L
// left of the diagonal block, element (k, jj) = L[j0+jj, k] at
// pk[panelOff(p)+k·w+jj], k < j0, zero padded beyond row n.
func packPanels(pk []float64, l blas64.General, n, w int) {
	for p := 1; p*w < n; p++ {
		j0 := p * w
		pan := pk[panelOff(p, w) : panelOff(p, w)+j0*w]
		for jj := 0; jj < w; jj++ {
			if j0+jj >= n {
				for k := 0; k < j0; k++ {
					pan[k*w+jj] = 0
				}
				continue
			}
			for k, v := range l.Data[(j0+jj)*l.Stride : (j0+jj)*l.Stride+j0] {
				pan[k*w+jj] = v
			}
		}
	}
}

// solveRowsT solves the rows r0..r1−1 of x (in place) panel by panel.
func solveRowsT(x, l blas64.General, pk []float64, r0, r1, n, w int) {
	var tmp [4 * 16]float64
	ld := x.Stride
	for j0 := 0; j0 < n; j0 += w {
		cols := min(w, n-j0)
		pan := pk[panelOff(j0/w, w):]
		for i0 := r0; i0 < r1; i0 += 4 {
			rows := min(4, r1-i0)
			switch {
			case j0 == 0:
				clear(tmp[:])
			case rows == 4:
				asm.DotTile(tmp[:], w, x.Data[i0*ld:], ld, pan, j0)
			default:
				// Fewer than four rows: one at a time (lda 0), so that
				// each row goes through the same tile code.
				var one [4 * 16]float64
				for r := 0; r < rows; r++ {
					asm.DotTile(one[:], w, x.Data[(i0+r)*ld:], 0, pan, j0)
					copy(tmp[r*w:r*w+w], one[:w])
				}
			}
			for r := 0; r < rows; r++ {
				xr := x.Data[(i0+r)*ld : (i0+r)*ld+n]
				triPanel(xr, l, tmp[r*w:r*w+cols], j0)
			}
		}
	}
}

// triPanel finishes the columns j0..j0+len(t)−1 of one row xr: t holds
// Σ_{k<j0} L_jk x_k, the triangle within the panel is summed here.
func triPanel(xr []float64, l blas64.General, t []float64, j0 int) {
	for jj, tj := range t {
		j := j0 + jj
		lj := l.Data[j*l.Stride : j*l.Stride+j+1]
		s := xr[j] - tj
		for k := j0; k < j; k++ {
			s -= lj[k] * xr[k]
		}
		xr[j] = s / lj[j]
	}
}
