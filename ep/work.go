package ep

import (
	"context"
	"sync"
)

// work holds the O(n²) scratch of one EP run (the matrix V = L⁻¹ S^½ K and,
// for the sequential schedule, Σ) and the O(n) vectors of a sweep. Runs
// take a work from a pool, so that repeated Infer calls on similar sizes
// (hyperparameter optimisation, PASS-GP batches) reuse the same memory.
type work struct {
	v, sigma []float64 // n×n
	a, b, c  []float64 // n
	oldTau   []float64
	oldNu    []float64
	dTau     []float64
	dNu      []float64
	perm     []int

	// varByInverse: the weak sites and their n×len(weak) columns
	weak []int
	x    []float64
	// inverse records that the last refresh left W = L⁻¹ of the current
	// factor in v (varByInverse), which the evidence gradient can reuse.
	inverse bool

	// sequential schedule: pending rank-one updates
	ut, pb   []float64 // seqBlock×n
	cb, coef []float64 // seqBlock

	// ctx, when not nil, is the context of the run using w: refresh
	// stops between its O(n³) steps once it is done (see cancelled).
	ctx  context.Context
	stop error // ctx.Err() once seen
}

// cancelled returns the error of w's context once it is done, else nil;
// once it has seen the error it keeps it without asking ctx again.
func (w *work) cancelled() error {
	if w.stop == nil && w.ctx != nil {
		w.stop = w.ctx.Err()
	}
	return w.stop
}

func (w *work) blockBufs(kb, n int) {
	w.ut = grow(w.ut, kb*n)
	w.pb = grow(w.pb, kb*n)
	w.cb = grow(w.cb, kb)
	w.coef = grow(w.coef, kb)
}

var workPool sync.Pool

func getWork(n int) *work {
	w, _ := workPool.Get().(*work)
	if w == nil {
		w = new(work)
	}
	w.v = grow(w.v, n*n)
	w.a = grow(w.a, n)
	w.b = grow(w.b, n)
	w.c = grow(w.c, n)
	w.oldTau = grow(w.oldTau, n)
	w.oldNu = grow(w.oldNu, n)
	w.dTau = grow(w.dTau, n)
	w.dNu = grow(w.dNu, n)
	if cap(w.perm) < n {
		w.perm = make([]int, n)
	}
	w.perm = w.perm[:n]
	return w
}

func (w *work) sigmaBuf(n int) []float64 {
	w.sigma = grow(w.sigma, n*n)
	return w.sigma
}

func putWork(w *work) { workPool.Put(w) }

// grow returns s resized to n, reallocated where too small with a
// quarter to spare (as la's scratch classes), so that an active set
// growing by a few points reuses it.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, n+n/4)
	}
	return s[:n]
}

// zeroed clears a pooled slice: a kernel.Kernel's TrainTo may fill only
// what it knows to be non-zero.
func zeroed(b *[]float64) []float64 {
	clear(*b)
	return *b
}
