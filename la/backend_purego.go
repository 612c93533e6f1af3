//go:build !cgo || purego

package la

// Backend names the BLAS/LAPACK implementation in use.
const Backend = "gonum"

// gonum's pure-Go BLAS is the default of blas64 and lapack64; it runs
// single-threaded per call.
func setBLASThreads(n int) {}

func blasThreads() int { return 1 }

func blasCore() string { return "" }

func blasConfig() string { return "" }
