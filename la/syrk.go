package la

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// SyrkTo sets dst = alpha·a aᵀ + beta·dst for an n×k a and n×n dst, filling
// both triangles of dst (only its lower triangle is read when beta != 0).
// It is one DSYRK (n²k FLOPs, half a DGEMM's) and a mirror copy.
func SyrkTo(dst blas64.General, alpha float64, a blas64.General, beta float64) {
	syrkFull("SyrkTo", dst, alpha, a, beta, blas.NoTrans, a.Rows)
}

// SyrkTransTo sets dst = alpha·aᵀa + beta·dst for a k×n a and n×n dst,
// filling both triangles of dst. EP's posterior covariance Σ = K - VᵀV is
// SyrkTransTo(sigma, -1, v, 1) on a copy of K.
func SyrkTransTo(dst blas64.General, alpha float64, a blas64.General, beta float64) {
	syrkFull("SyrkTransTo", dst, alpha, a, beta, blas.Trans, a.Cols)
}

func syrkFull(name string, dst blas64.General, alpha float64, a blas64.General, beta float64, t blas.Transpose, n int) {
	if dst.Rows != n || dst.Cols != n {
		panic("la: " + name + ": destination shape mismatch")
	}
	if n == 0 {
		return
	}
	blas64.Syrk(t, alpha, a, beta, blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: dst.Stride, Data: dst.Data})
	SymmetrizeLower(dst)
}
