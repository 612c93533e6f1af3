package la

import (
	"errors"
	"fmt"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// ErrBLASStuck is the error of Probe when the BLAS library does not return.
var ErrBLASStuck = errors.New("la: the BLAS library did not return from a small call")

// probeN is the order of Probe's matrices: large enough that OpenBLAS
// takes its blocked paths, which need its work buffers.
const probeN = 160

// Probe runs a few small BLAS and LAPACK calls (a matrix product, a
// triangular product and a Cholesky factorisation of order 160, a few
// milliseconds) and returns an error wrapping ErrBLASStuck if they do not
// return within timeout. OpenBLAS spins forever, at full CPU, when it
// cannot map its work buffers or start its threads (seen under an
// address-space limit, ulimit -v 1 GiB); a program can call Probe once at
// start-up to turn that into an error instead of a hang. Calls that did not
// return keep their thread; the program should exit.
func Probe(timeout time.Duration) error {
	done := make(chan error, 1)
	calls := probeCalls
	go func() { done <- calls() }()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		return fmt.Errorf("%w within %v (%s backend, %d threads): an address-space limit (ulimit -v) or a thread limit can stop OpenBLAS from mapping its buffers or starting its threads; raise the limit",
			ErrBLASStuck, timeout, Backend, BLASThreads())
	}
}

// probeCalls is a variable so that a test can make the calls hang.
var probeCalls = func() error {
	n := probeN
	a := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a.Data[i*n+j] = 1 / float64(1+i+j) // Hilbert-like, symmetric
		}
		a.Data[i*n+i] += float64(n)
	}
	b := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, a, 0, b)
	blas64.Trmm(blas.Left, blas.NoTrans, 1, blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: n, Stride: n, Data: a.Data}, b)
	if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: a.Data}); !ok {
		return errors.New("la: Probe: the BLAS library failed a Cholesky factorisation of a positive definite matrix")
	}
	return nil
}
