package la

import (
	"math/bits"
	"sync"
)

// Scratch slices are the workspaces that hot paths ask for at the same
// sizes over and over: EP's n×n matrices and FITC blocks, the Gram
// kernels' packed panels, the solvers' packed factors, the kernel
// gradients' distance blocks. Fresh slices of megabytes cost zeroing,
// page faults and collections on every call. They come from pools, one
// per capacity class (four classes per power of two, so that a slice is
// at most a quarter larger than asked for): a request never takes a
// smaller slice only to drop it.
var scratchPools [4 * 64]sync.Pool

// scratchClass returns the smallest class whose capacity (scratchCap) is
// at least n.
func scratchClass(n int) int {
	e := max(bits.Len(uint(max(n, 1)-1))-3, 0)
	mant := max((n+(1<<e)-1)>>e, 4) // in [4, 8]
	return 4*e + mant - 4
}

// scratchCap is the capacity of class c's slices: (4 + c%4)·2^(c/4).
func scratchCap(c int) int { return (4 + c%4) << (c / 4) }

// GetScratch returns a slice of length n, not zeroed, from the pools (or a
// new one of its class's capacity). Hand it back with PutScratch once
// nothing reads it; the pools are safe for concurrent use.
func GetScratch(n int) *[]float64 {
	c := scratchClass(n)
	b, _ := scratchPools[c].Get().(*[]float64)
	if b == nil {
		s := make([]float64, n, scratchCap(c))
		return &s
	}
	*b = (*b)[:n]
	return b
}

// PutScratch hands b back to the pool of the largest class it can serve
// in full.
func PutScratch(b *[]float64) {
	c := scratchClass(cap(*b))
	if scratchCap(c) > cap(*b) {
		c--
	}
	if c >= 0 {
		scratchPools[c].Put(b)
	}
}
