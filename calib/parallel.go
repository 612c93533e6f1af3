package calib

import (
	"sync"
	"sync/atomic"
)

// forEach runs f(j) for j = 0..n-1 on min(workers, n) goroutines (in
// this goroutine when that is at most 1), handing out j in order. Fit
// runs its independent starts with it, each writing only its own result,
// so the fit is the same for any number of workers.
func forEach(workers, n int, f func(j int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for j := 0; j < n; j++ {
			f(j)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j := int(next.Add(1)) - 1
				if j >= n {
					return
				}
				f(j)
			}
		}()
	}
	wg.Wait()
}
