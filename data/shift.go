package data

import (
	"slices"

	"gonum.org/v1/gonum/mat"
)

// shifts8 are the one-pixel translations of paper Section 6.3 (right,
// left, down, up; then the diagonals), as (dx, dy).
var shifts8 = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// ShiftImageTo sets dst to the w×h row-major image src translated by
// (dx, dy) pixels (positive dx moves the content right, positive dy down).
// Pixels shifted in from outside take the image's smallest value, its
// background (−1 for USPS, 0 for MNIST).
func ShiftImageTo(dst, src []float64, w, h, dx, dy int) {
	if len(src) != w*h || len(dst) != w*h {
		panic("data: image size mismatch")
	}
	fill := slices.Min(src)
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			sr, sc := r-dy, c-dx
			if sr < 0 || sr >= h || sc < 0 || sc >= w {
				dst[r*w+c] = fill
			} else {
				dst[r*w+c] = src[sr*w+sc]
			}
		}
	}
}

// ImageShift returns the s-th translation of AugmentShifts (0 ≤ s < 8) as
// (dx, dy): right, left, down, up, then the diagonals.
func ImageShift(s int) (dx, dy int) { return shifts8[s][0], shifts8[s][1] }

// AugmentShifts returns the rows of x followed by, for each row in turn,
// its `dirs` (4 or 8) one-pixel translations, and the matching labels.
// Row i of x yields rows n + i·dirs … n + i·dirs + dirs − 1.
func AugmentShifts(x *mat.Dense, y []float64, w, h, dirs int) (*mat.Dense, []float64) {
	if dirs != 4 && dirs != 8 {
		panic("data: AugmentShifts wants 4 or 8 directions")
	}
	n, d := x.Dims()
	if w*h != d {
		panic("data: image geometry does not match the number of features")
	}
	out := mat.NewDense(n*(1+dirs), d, nil)
	ya := make([]float64, n*(1+dirs))
	raw := x.RawMatrix()
	o := out.RawMatrix()
	for i := 0; i < n; i++ {
		src := raw.Data[i*raw.Stride : i*raw.Stride+d]
		copy(o.Data[i*d:(i+1)*d], src)
		ya[i] = y[i]
		for s := 0; s < dirs; s++ {
			row := n + i*dirs + s
			ShiftImageTo(o.Data[row*d:(row+1)*d], src, w, h, shifts8[s][0], shifts8[s][1])
			ya[row] = y[i]
		}
	}
	return out, ya
}
