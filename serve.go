package passgpfast

import (
	"sync"

	"github.com/passgp-fast/passgp-fast/la"
)

// Serving returns the serving view of c: the same model and methods, but
// each prediction call (Predict, PredictDataset, PredictProbaTo,
// DecideTo, Evaluate, RawTo, LatentMeanVarTo) runs on the calling
// goroutine alone and makes no BLAS call: the Gram blocks, the means and
// the triangular solves of the variances go through la's serial kernels
// (la.SerialSolveLowerTransRightTo and friends, on the AVX-512/AVX2/NEON
// tiles of the Gram kernels). A service shares the view between its
// goroutines: each call uses one core, so g goroutines use g cores,
// without the process-wide BLAS setting (la.SetThreads) that would
// otherwise be needed, and without the turns of the default policy.
// Results are bit for bit the same however many goroutines call, and
// agree with c's own within rounding (a different summation order). The
// view shares c's memory and is as cheap as a copy of the pointer.
func (c *Classifier) Serving() *Classifier {
	s := *c
	s.serving = true
	return &s
}

// IsServing reports whether c is a serving view (Serving).
func (c *Classifier) IsServing() bool { return c.serving }

// blasTurn makes the prediction calls of every Classifier that is not a
// serving view take turns at their BLAS work while the BLAS library is
// multi-threaded. Such a call already uses every core, and OpenBLAS runs
// concurrent multi-threaded calls by contending for the same thread pool,
// which measured 0.77x the points per second of one goroutine with two
// goroutines on two cores (docs/performance.md, "Concurrent prediction").
// In turns, concurrent callers get the throughput of one multi-threaded
// caller without any process-wide setting. With a single-threaded BLAS
// (la.SetThreads(1), the application's choice) the calls run side by
// side, one core each. The turns change no result: each call computes
// exactly what it would alone.
var blasTurn sync.Mutex

// serveTurns switches the turns on; the benchmark compares without.
var serveTurns = true

// inTurn runs f, in turn with the other prediction calls when the BLAS
// library is multi-threaded.
func inTurn(f func()) {
	if serveTurns && la.BLASThreads() > 1 {
		blasTurn.Lock()
		defer blasTurn.Unlock()
	}
	f()
}
