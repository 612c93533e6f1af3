// Package la is the dense linear algebra layer of passgp-fast.
//
// # Backend
//
// Every dense operation goes through gonum's blas64 and lapack64 interfaces.
// By default (cgo enabled) they are backed by OpenBLAS and LAPACKE through
// gonum.org/v1/netlib; the package links -lopenblas -llapacke itself, so
// users need no CGO_LDFLAGS. Building with the purego tag (or with
// CGO_ENABLED=0) selects gonum's pure-Go BLAS/LAPACK instead:
//
//	go test -tags purego ./...
//
// Backend names the implementation in use ("openblas" or "gonum").
//
// # Factorisations and solves
//
// Matrices are row-major blas64.General values; triangular matrices are the
// lower triangle of a square General (the strict upper triangle is not
// referenced unless a function says so).
//
//   - Cholesky factors in place;
//   - SolveLowerTo, SolveLowerTransTo, SolveLowerTransRightTo and CholSolveTo
//     solve with many right-hand sides;
//   - InvLowerTo and CholInverseTo invert a factor and the factored matrix;
//   - SyrkTo and SyrkTransTo form symmetric products with both triangles
//     filled, and SymmetrizeLower mirrors a lower triangle.
//
// The factorisation, solves and inverses share one recursive splitting in
// which every large piece of work is a DGEMM or DSYRK call: OpenBLAS's own
// DTRSM and DPOTRF reach only 50-85% of its DGEMM rate on the project's
// machine (docs/performance.md). Their workspaces come from a pool, so a
// training loop that factors and solves at a fixed size does not allocate
// per iteration.
//
// # Threads
//
// Threads (set by SetThreads, default GOMAXPROCS) is the number of cores the
// module may use at once. The policy that keeps Go goroutines and OpenBLAS
// threads from oversubscribing them is:
//
//   - A large BLAS or LAPACK call (a Cholesky of B, a solve with many
//     right-hand sides, a Gram block formed by DGEMM) runs alone, with the
//     BLAS library using Threads() threads; its caller starts no other
//     compute-bound goroutines meanwhile.
//   - A Go worker pool (Gram tiles, batches of test points, one classifier
//     per class) starts Workers(n) goroutines and sets the BLAS library to
//     one thread for as long as it runs (defer LimitBLAS(1)()), so that
//     workers × BLAS threads <= Threads().
//   - OpenBLAS's thread count is process-wide, so it is changed only by the
//     coordinating goroutine, before it starts workers and after they have
//     finished, never while another goroutine is inside a BLAS call.
//
// OpenBLAS's idle threads spin for a while after each call before they
// sleep; a program that alternates short multi-threaded BLAS calls with Go
// worker pools can set OPENBLAS_THREAD_TIMEOUT (e.g. 4) in the environment
// to make them yield the cores sooner.
//
// Results do not depend on the thread count for the operations of this
// package's own code; OpenBLAS may change the summation order of a call with
// its thread count, so results can differ in the last bits between thread
// counts, never between runs with the same count.
//
// # Gram kernels
//
// Gram-matrix (cross-covariance) kernels compute squared distances and inner
// products with fused elementwise maps for the covariance functions.
package la
