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
// # Kernels
//
// OpenBLAS built for several CPUs (DYNAMIC_ARCH, as Debian's is) picks its
// kernels when the library is loaded, from the CPU's model or from
// OPENBLAS_CORETYPE; on a virtual machine that hides the model it can pick
// ones several times slower than the CPU allows. BLASCore and BLASConfig
// say what it picked. This package never changes the choice: that takes
// a new process (the environment must hold OPENBLAS_CORETYPE when the
// library loads), and a library must not re-execute its caller or change
// its environment. A program decides for itself, in main before anything
// else, by calling la/blasinit's UseBestKernels, which re-executes the
// program once with the kernels of the CPU's instruction set after
// checking them against gonum's pure-Go code; passgp-fast's command and
// its benchmarks do (docs/blas.md).
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
// GetScratch and PutScratch lend float64 slices by capacity class: the
// scratch that this package's kernels and the packages above it (EP's
// matrices, the kernel gradients' distance blocks) need at the same
// sizes over and over.
//
// # Threads
//
// The thread policy is the application's, set once at start-up; no
// function of this module or of the packages built on it changes it:
//
//   - Threads (SetThreads, default GOMAXPROCS) is the number of goroutines
//     of one Go worker pool: Gram tiles, chunks of test points, classes.
//   - The BLAS library's thread count is OpenBLAS's own (its default, or
//     OPENBLAS_NUM_THREADS when set; importing this package does not
//     change it). SetThreads sets it too; SetBLASThreads sets it alone.
//   - A worker pool whose workers call BLAS starts PoolWorkers(n)
//     goroutines: several only when BLAS is single-threaded. With a
//     multi-threaded BLAS each call already uses the cores, and OpenBLAS
//     runs concurrent multi-threaded calls one after another.
//
// Two settings cover the uses:
//
//   - One large job at a time (training, predicting a file): leave BLAS
//     multi-threaded; each factorisation and solve uses every core.
//   - Many concurrent calls (a service predicting from many goroutines, or
//     TrainMulti training classes side by side): set BLAS to one thread,
//     la.SetBLASThreads(1) or OPENBLAS_NUM_THREADS=1, before the first
//     call. Each call then runs on its own core, calls scale with the
//     cores (docs/performance.md), and prediction is safe from any number
//     of goroutines on shared models.
//
// The serial kernels (SerialGramSETo, SerialMulVecTo,
// SerialSolveLowerTransRightTo and the others of serial.go) need neither:
// they run on the calling goroutine alone with no BLAS call, on the Gram
// kernels' SIMD tiles, so that concurrent callers use one core each
// whatever the BLAS setting. The serving view of a classifier
// (passgpfast.Classifier.Serving) predicts through them.
//
// Importing this package selects OpenBLAS as gonum's BLAS and LAPACK
// implementation (blas64.Use, lapack64.Use, in backend_openblas.go): an
// implementation, not a policy, with the same results as gonum's own up to
// rounding. Build with -tags purego to keep gonum's pure-Go code.
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
