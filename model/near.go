package model

import (
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// nearChunk is the number of rows of one Gram block of nearTo.
const nearChunk = 256

// nearTo sets near[i] to the largest correlation of row i of x with one
// of b's active inputs in the kernel's stationary part
// (kernel.Stationary), k_s(x_i, a)/k_s(x_i, x_i) in [0, 1]: 1 on an
// active input, near 0 far from all of them. Kernels without a
// stationary part (poly, se+lin), whose covariances grow with the inputs
// so that no point is far from the data, give 1. Only the gate of model
// files written by older builds (calib.Calibration.Gated) reads it, so it
// runs serially, with no BLAS call, in O(n·|A|·d).
func nearTo(b *passgp.Binary, near []float64, x *mat.Dense) {
	n, d := x.Dims()
	near = near[:n]
	s, variance, _, ok := kernel.Stationary(b.Kernel)
	m, _ := b.X.Dims()
	switch {
	case !ok || !(variance > 0):
		for i := range near {
			near[i] = 1
		}
		return
	case m == 0:
		clear(near)
		return
	}
	kc := mat.NewDense(min(nearChunk, n), m, nil)
	xc := mat.NewDense(min(nearChunk, n), d, nil)
	for lo := 0; lo < n; lo += nearChunk {
		hi := min(lo+nearChunk, n)
		kb := kc.Slice(0, hi-lo, 0, m).(*mat.Dense)
		xb := xc.Slice(0, hi-lo, 0, d).(*mat.Dense)
		xb.Copy(x.Slice(lo, hi, 0, d))
		kernel.SerialCrossTo(s, kb, xb, b.X)
		for i := lo; i < hi; i++ {
			near[i] = min(max(slices.Max(kb.RawRowView(i-lo))/variance, 0), 1)
		}
	}
}
