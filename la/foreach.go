package la

import (
	"sync"
	"sync/atomic"
)

// ForEach runs f(worker, i) for i = 0..n-1 on min(workers, n) goroutines
// (in the calling goroutine when that is at most 1), handing out i in
// order; worker, in [0, workers), identifies the goroutine, for
// per-worker scratch. When each i writes only its own outputs, the result
// does not depend on the number of workers.
func ForEach(workers, n int, f func(worker, i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(w, i)
			}
		}(w)
	}
	wg.Wait()
}
