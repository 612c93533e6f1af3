package data

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ShiftImageTo moves the content and fills with the image's smallest
// value; AugmentShifts appends each row's translations with its label.
func TestShiftImage(t *testing.T) {
	src := []float64{
		1, 2, 3,
		4, 5, 6,
		7, 8, 9,
	}
	dst := make([]float64, 9)
	ShiftImageTo(dst, src, 3, 3, 1, 0)
	if !slices.Equal(dst, []float64{1, 1, 2, 1, 4, 5, 1, 7, 8}) {
		t.Errorf("right shift: %v", dst)
	}
	ShiftImageTo(dst, src, 3, 3, 0, -1)
	if !slices.Equal(dst, []float64{4, 5, 6, 7, 8, 9, 1, 1, 1}) {
		t.Errorf("up shift: %v", dst)
	}
	x := mat.NewDense(2, 9, append(slices.Clone(src), src...))
	xa, ya := AugmentShifts(x, []float64{1, -1}, 3, 3, 8)
	if r, _ := xa.Dims(); r != 18 || ya[2] != 1 || ya[17] != -1 {
		t.Errorf("AugmentShifts: %d rows, labels %v", r, ya)
	}
}
