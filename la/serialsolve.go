package la

import (
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/passgp-fast/passgp-fast/la/internal/asm"
)

// SerialSolveLowerTransRightTo is SolveLowerTransRightTo (dst = b L⁻ᵀ,
// row i of dst is L⁻¹ b_i) on the calling goroutine alone, without BLAS.
// dst may be b itself; otherwise they must not overlap.
//
// Each row is a forward substitution, x_j = (b_j − Σ_{k<j} L_jk x_k)/L_jj,
// taken in panels of w = asm.TileWidth() columns. For a panel starting at
// column j0, the sums over k < j0 of four rows at a time are one
// inner-product tile against L's rows j0..j0+w−1 (packed once per call,
// n²/2 values), which is where the n²/2 multiply-adds per row go; the
// panel's own w×w triangle is a second tile, against the explicit
// inverse of that diagonal block (as la's recursive solver does at its
// leaves: inverting the n/w blocks costs n·w²/3, and it replaces a chain
// of dependent scalar operations). Rows are taken in chunks whose values
// stay in L2 while the packed panels stream past. Every row's operations
// are the same wherever the row sits, so a row's result does not depend
// on the other rows.
func SerialSolveLowerTransRightTo(dst, l, b blas64.General) {
	n, m := checkSolve("SerialSolveLowerTransRightTo", dst, l, b, true)
	if n == 0 || m == 0 {
		return
	}
	copyIfDistinct(dst, b)
	w := asm.TileWidth()
	np := (n + w - 1) / w
	off := panelOff(np, w)
	pkp := GetScratch(off + np*w*w)
	pk := *pkp
	packPanels(pk, l, n, w)
	packDiagInv(pk[off:], l, n, w)
	chunk := solveChunk(n)
	for c0 := 0; c0 < m; c0 += chunk {
		solveRowsT(dst, pk, pk[off:], c0, min(m, c0+chunk), n, w)
	}
	PutScratch(pkp)
}

// solveChunk is the number of rows solved together: a multiple of 4
// whose values (chunk·n) take about 512 KiB, half the project machine's
// 1 MiB L2 per core, so that they stay there while each packed panel
// (w·n values, 128 KiB for n = 1000 and w = 16) is used by all of them;
// at least 4, at most 256.
func solveChunk(n int) int {
	c := (512 << 10) / 8 / max(n, 1)
	return max(4, min(256, c&^3))
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
		rows := min(w, n-j0)
		for k := 0; k < j0; k++ {
			pr := pan[k*w : k*w+w]
			for jj := range rows {
				pr[jj] = l.Data[(j0+jj)*l.Stride+k]
			}
			clear(pr[rows:])
		}
	}
}

// packDiagInv sets, for each panel p, di[p·w²+k·w+jj] to element (jj, k)
// of the inverse of L's diagonal block p (zero outside the block's
// order): the operand of the tile that finishes a panel,
// x_jj = Σ_k (L_pp⁻¹)_{jj,k} y_k.
func packDiagInv(di []float64, l blas64.General, n, w int) {
	di = di[:(n+w-1)/w*w*w]
	clear(di)
	for j0 := 0; j0 < n; j0 += w {
		c := min(w, n-j0)
		blk := di[j0*w:]
		// Column k of L_pp⁻¹ by forward substitution: z_i = (δ_ik −
		// Σ_{k≤q<i} L_iq z_q)/L_ii, stored at blk[k*w+i].
		for k := range c {
			z := blk[k*w : k*w+c]
			for i := k; i < c; i++ {
				li := l.Data[(j0+i)*l.Stride+j0 : (j0+i)*l.Stride+j0+i+1]
				var s float64
				if i == k {
					s = 1
				}
				for q := k; q < i; q++ {
					s -= li[q] * z[q]
				}
				z[i] = s / li[i]
			}
		}
	}
}

// solveRowsT solves the rows r0..r1−1 of x (in place) panel by panel
// (pk the packed panels, di the packed diagonal-block inverses).
func solveRowsT(x blas64.General, pk, di []float64, r0, r1, n, w int) {
	var tmp, y, out [4 * 16]float64
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
			// y = b − Σ_{k<j0} (zero padded), then x = y L_ppᵀ⁻¹.
			clear(y[:])
			for r := range rows {
				xr := x.Data[(i0+r)*ld+j0 : (i0+r)*ld+j0+cols]
				for jj, v := range xr {
					y[r*w+jj] = v - tmp[r*w+jj]
				}
			}
			asm.DotTile(out[:], w, y[:], w, di[j0*w:], w)
			for r := range rows {
				copy(x.Data[(i0+r)*ld+j0:(i0+r)*ld+j0+cols], out[r*w:r*w+cols])
			}
		}
	}
}
