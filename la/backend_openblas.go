//go:build cgo && !purego

package la

/*
#cgo LDFLAGS: -lopenblas -llapacke
extern void openblas_set_num_threads(int);
extern int openblas_get_num_threads(void);
extern char* openblas_get_corename(void);
extern char* openblas_get_config(void);
*/
import "C"

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	blasnetlib "gonum.org/v1/netlib/blas/netlib"
	lapacknetlib "gonum.org/v1/netlib/lapack/netlib"
)

// Backend names the BLAS/LAPACK implementation in use.
const Backend = "openblas"

func init() {
	blas64.Use(blasnetlib.Implementation{})
	lapack64.Use(lapacknetlib.Implementation{})
}

func setBLASThreads(n int) { C.openblas_set_num_threads(C.int(n)) }

func blasThreads() int { return int(C.openblas_get_num_threads()) }

func blasCore() string { return C.GoString(C.openblas_get_corename()) }

func blasConfig() string { return C.GoString(C.openblas_get_config()) }
