package la

import (
	"sync/atomic"
	"testing"
)

// TestForEach: every index runs exactly once, on a worker in range, for
// any number of workers, including more workers than indices and none.
func TestForEach(t *testing.T) {
	for _, c := range []struct{ workers, n int }{{1, 10}, {2, 100}, {4, 3}, {0, 5}, {3, 0}} {
		hits := make([]atomic.Int32, c.n)
		var bad atomic.Int32
		ForEach(c.workers, c.n, func(w, i int) {
			if w < 0 || w >= max(c.workers, 1) {
				bad.Add(1)
			}
			hits[i].Add(1)
		})
		for i := range hits {
			if h := hits[i].Load(); h != 1 {
				t.Errorf("workers %d, n %d: index %d ran %d times", c.workers, c.n, i, h)
			}
		}
		if bad.Load() != 0 {
			t.Errorf("workers %d, n %d: a worker index out of range", c.workers, c.n)
		}
	}
}
