package ivm

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// column computes one column K(X, x_j) of the training covariance
// per call, for IVM's sequential selection. For the SE and SE+linear
// kernels the squared row norms of X are computed once, so a column costs
// one DGEMV X·x_j (one pass over X) and an exp per row, instead of
// recomputing the norms and a separate linear Gram term at every step.
// Other kernels fall back to Kernel.CrossTo. The jitter is not added.
type column struct {
	k    kernel.Kernel
	x    *mat.Dense
	fast bool
	amp  float64 // SE variance t1
	c    float64 // 1/(2 t2)
	lin  float64 // linear weight t4 (0 for SE)
	sq   []float64
	dot  []float64
	xj   *mat.Dense
	out  *mat.Dense
}

func newColumn(k kernel.Kernel, x *mat.Dense) *column {
	n, d := x.Dims()
	kc := &column{k: k, x: x, dot: make([]float64, n)}
	switch kk := k.(type) {
	case kernel.SE:
		kc.fast, kc.amp, kc.c = true, kk.Var, 1/(2*kk.Len2)
	case kernel.SELin:
		kc.fast, kc.amp, kc.c, kc.lin = true, kk.Var, 1/(2*kk.Len2), kk.Lin
	}
	if kc.fast {
		kc.sq = make([]float64, n)
		raw := x.RawMatrix()
		for i := range kc.sq {
			r := raw.Data[i*raw.Stride : i*raw.Stride+d]
			kc.sq[i] = blas64.Dot(blas64.Vector{N: d, Inc: 1, Data: r}, blas64.Vector{N: d, Inc: 1, Data: r})
		}
	} else {
		kc.out = mat.NewDense(n, 1, nil)
	}
	return kc
}

// columnTo sets dst[i] = k(x_i, x_j) for every row i (no jitter).
func (kc *column) columnTo(dst []float64, j int) {
	raw := kc.x.RawMatrix()
	n, d := raw.Rows, raw.Cols
	xj := raw.Data[j*raw.Stride : j*raw.Stride+d]
	if !kc.fast {
		kc.k.CrossTo(kc.out, kc.x, mat.NewDense(1, d, xj))
		copy(dst, kc.out.RawMatrix().Data)
		return
	}
	blas64.Gemv(blas.NoTrans, 1, raw, blas64.Vector{N: d, Inc: 1, Data: xj}, 0, blas64.Vector{N: n, Inc: 1, Data: kc.dot})
	sj := kc.sq[j]
	for i, dt := range kc.dot[:n] {
		d2 := max(kc.sq[i]+sj-2*dt, 0)
		dst[i] = kc.amp*math.Exp(-kc.c*d2) + kc.lin*dt
	}
	dst[j] = kc.amp + kc.lin*kc.dot[j]
}
