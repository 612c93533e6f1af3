package passgpfast

import (
	"sync"

	"github.com/passgp-fast/passgp-fast/la"
)

// blasTurn makes the prediction calls of every Classifier take turns at
// their BLAS work while the BLAS library is multi-threaded. Such a call
// already uses every core, and OpenBLAS runs concurrent multi-threaded
// calls by contending for the same thread pool, which measured 0.77x the
// points per second of one goroutine with two goroutines on two cores
// (docs/performance.md, "Concurrent prediction"). In turns, concurrent
// callers get the throughput of one multi-threaded caller without any
// process-wide setting. With a single-threaded BLAS (la.SetThreads(1),
// the application's choice) the calls run side by side, one core each.
// The turns change no result: each call computes exactly what it would
// alone.
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
