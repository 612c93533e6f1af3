package la

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// Cholesky overwrites the lower triangle of the n×n matrix a with its
// Cholesky factor L (a = L Lᵀ). The strict upper triangle is not referenced.
// It returns false if a is not positive definite; a is then partly
// overwritten.
func Cholesky(a blas64.General) bool {
	if a.Rows != a.Cols {
		panic("la: Cholesky of a non-square matrix")
	}
	_, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: a.Rows, Stride: a.Stride, Data: a.Data})
	return ok
}
