package la

import (
	"runtime"
	"sync"
)

var (
	threadsMu sync.Mutex
	threads   = runtime.GOMAXPROCS(0)
)

// SetThreads sets the number of threads that BLAS calls and the Go worker
// pools of this module may use. n <= 0 means runtime.GOMAXPROCS(0).
//
// Code that runs several BLAS-heavy tasks concurrently (for example one
// binary classifier per class) should give each task Threads()/k threads
// through SetBLASThreads so that the cores are not oversubscribed.
func SetThreads(n int) {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	threadsMu.Lock()
	threads = n
	threadsMu.Unlock()
	setBLASThreads(n)
}

// Threads returns the thread budget set by SetThreads.
func Threads() int {
	threadsMu.Lock()
	defer threadsMu.Unlock()
	return threads
}

// SetBLASThreads sets only the BLAS library's thread count (a no-op for the
// pure-Go backend). OpenBLAS's setting is process-wide.
func SetBLASThreads(n int) {
	if n < 1 {
		n = 1
	}
	setBLASThreads(n)
}

// BLASThreads reports the BLAS library's current thread count.
func BLASThreads() int { return blasThreads() }

func init() { setBLASThreads(threads) }
