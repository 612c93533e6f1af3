package score

import (
	"context"

	"github.com/passgp-fast/passgp-fast/la"
)

// Runner scores on Threads worker goroutines with a reusable workspace
// per worker (O(Chunk·(M+d)) each). A Runner is not safe for concurrent
// use: callers that score at once (the classes of a one-vs-rest run) each
// take their own. Its zero value with Threads set is ready to use.
type Runner struct {
	// Threads is the number of worker goroutines (at most; values below
	// 1 mean 1).
	Threads int
	// Serial scores on the calling goroutine alone with no BLAS call
	// (kernel.SerialCrossTo, ep's serial prediction): the serving runner.
	Serial bool
	ws     []workspace
}

// parallel runs f(c) for c = 0..n-1 on up to r.Threads goroutines. Each c
// must write disjoint outputs, so the result does not depend on the number
// of goroutines. It starts several only when BLAS is single-threaded
// (la.PoolWorkers): with a multi-threaded BLAS every chunk's solve already
// uses the cores. The process-wide BLAS setting is the application's and is
// never changed here, so any number of callers may run at once.
func (r *Runner) parallel(n int, f func(worker, c int)) {
	workers := r.Threads
	if r.Serial || la.BLASThreads() > 1 {
		workers = 1
	}
	la.ForEach(workers, n, f)
}

// Chunks calls f(w, lo, hi) for the rows [lo, hi) of n rows in chunks of
// Chunk rows on r's workers (w the worker, in [0, max(r.Threads, 1))), a
// round of one chunk per worker at a time, and checks ctx between rounds:
// it returns ctx's error, with the later rows left undone, when ctx ends.
// Callers keep per-worker scratch indexed by w; the chunks are those of
// Predict, so a pass over rows split this way does not depend on Threads.
func (r *Runner) Chunks(ctx context.Context, n int, f func(w, lo, hi int)) error {
	step := Chunk * max(r.Threads, 1)
	for from := 0; from < n; from += step {
		if err := ctx.Err(); err != nil {
			return err
		}
		to := min(from+step, n)
		r.parallel((to-from+Chunk-1)/Chunk, func(w, c int) {
			lo := from + c*Chunk
			f(w, lo, min(lo+Chunk, to))
		})
	}
	return nil
}
