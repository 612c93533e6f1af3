package la

import (
	"sync"
	"sync/atomic"
)

// forBlocks calls f(k) for k in [0, n), spread over Threads() goroutines
// that take blocks from a shared counter (dynamic scheduling, since the
// blocks of a triangle differ in cost). Each k is done exactly once, so the
// result does not depend on the thread count.
func forBlocks(n int, f func(k int)) {
	t := min(Threads(), n)
	if t <= 1 {
		for k := 0; k < n; k++ {
			f(k)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(t)
	for w := 0; w < t; w++ {
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				f(k)
			}
		}()
	}
	wg.Wait()
}

// forRows calls f(i) for every row i in [0, n) in parallel, in chunks of
// rows; tri says the rows are those of an upper triangle (cost falling with
// i), which only changes the chunk size.
func forRows(n int, tri bool, f func(i int)) {
	chunk := 16
	if tri {
		chunk = 8
	}
	forBlocks((n+chunk-1)/chunk, func(k int) {
		for i := k * chunk; i < min(n, (k+1)*chunk); i++ {
			f(i)
		}
	})
}
