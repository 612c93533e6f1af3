package la

import (
	"runtime"
	"sync"
)

var (
	threadsMu sync.Mutex
	threads   = runtime.GOMAXPROCS(0)
)

// SetThreads sets the thread budget of this module: the number of threads
// that one BLAS call, or one Go worker pool, may use (see the package
// documentation for the policy). It also sets the BLAS library's thread
// count to n. n <= 0 means runtime.GOMAXPROCS(0).
//
// It is the application's call, made once at start-up before any other
// goroutine uses the module: OpenBLAS's thread count is process-wide, and
// no function of this module changes it.
func SetThreads(n int) {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	threadsMu.Lock()
	threads = n
	threadsMu.Unlock()
	setBLASThreads(n)
}

// Threads returns the thread budget set by SetThreads (by default
// runtime.GOMAXPROCS(0) at start-up).
func Threads() int {
	threadsMu.Lock()
	defer threadsMu.Unlock()
	return threads
}

// Workers returns how many goroutines a worker pool over n independent
// pieces of work should start: min(Threads(), n), at least 1. BLAS calls made
// inside such a pool must run single-threaded (see LimitBLAS).
func Workers(n int) int {
	return max(1, min(Threads(), n))
}

// SetBLASThreads sets only the BLAS library's thread count (a no-op for the
// pure-Go backend, whose calls are single-threaded or use their own
// goroutines). n < 1 means 1. OpenBLAS's setting is process-wide: like
// SetThreads, it is the application's call, made while no BLAS call is
// running. SetBLASThreads(1) is the setting for serving many concurrent
// calls (see the package documentation).
func SetBLASThreads(n int) {
	if n < 1 {
		n = 1
	}
	setBLASThreads(n)
}

// BLASThreads reports the BLAS library's current thread count (1 for the
// pure-Go backend).
func BLASThreads() int { return blasThreads() }

// LimitBLAS sets the BLAS library's thread count to n and returns a function
// that restores the previous count. An application may use it around a
// phase of its own that runs a Go worker pool whose workers call BLAS, so
// that workers × BLAS threads stays within the budget; no function of this
// module calls it.
//
//	defer la.LimitBLAS(1)()
//	// start la.Workers(len(jobs)) goroutines ...
func LimitBLAS(n int) (restore func()) {
	old := BLASThreads()
	SetBLASThreads(n)
	return func() { SetBLASThreads(old) }
}

// PoolWorkers returns how many goroutines a worker pool over n pieces of
// work whose workers call BLAS should start: Workers(n) when the BLAS
// library is single-threaded, else 1, because a multi-threaded BLAS call
// already uses the cores (and OpenBLAS runs concurrent multi-threaded calls
// one after another). It reads the process-wide setting and changes
// nothing.
func PoolWorkers(n int) int {
	if BLASThreads() > 1 {
		return 1
	}
	return Workers(n)
}
