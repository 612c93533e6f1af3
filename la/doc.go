// Package la is the dense linear algebra layer of passgp-fast.
//
// Every dense operation goes through gonum's blas64 and lapack64 interfaces.
// By default (cgo enabled) they are backed by OpenBLAS and LAPACKE through
// gonum.org/v1/netlib; the package links -lopenblas -llapacke itself, so
// users need no CGO_LDFLAGS. Building with the purego tag (or with
// CGO_ENABLED=0) selects gonum's pure-Go BLAS/LAPACK instead:
//
//	go test -tags purego ./...
//
// On top of BLAS the package provides what the EP and scoring code need:
// a blocked Cholesky factorisation, Gram-matrix (cross-covariance) kernels
// for squared distances and inner products with fused elementwise maps, and
// control of the BLAS thread count (SetThreads) so that Go workers and
// OpenBLAS threads do not oversubscribe the cores.
package la
