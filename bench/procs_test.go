package bench

import (
	"runtime"
	"testing"

	"github.com/passgp-fast/passgp-fast/la"
)

// TestUseProcs checks that a benchmark under UseProcs runs on GOMAXPROCS
// threads, in the module's budget and in BLAS, even when BLAS's count was
// set apart from the budget, and that both are restored afterwards.
func TestUseProcs(t *testing.T) {
	if la.Backend != "openblas" {
		t.Skip("the pure-Go backend has no BLAS thread count")
	}
	old, oldBLAS := la.Threads(), la.BLASThreads()
	defer func() {
		la.SetThreads(old)
		la.SetBLASThreads(oldBLAS)
	}()
	p := runtime.GOMAXPROCS(0)
	la.SetThreads(p)
	la.SetBLASThreads(p + 1) // as OPENBLAS_NUM_THREADS apart from GOMAXPROCS would
	var inside, insideBLAS int
	testing.Benchmark(func(b *testing.B) {
		UseProcs(b)
		inside, insideBLAS = la.Threads(), la.BLASThreads()
		for b.Loop() {
		}
	})
	if inside != p || insideBLAS != p {
		t.Errorf("inside the benchmark: budget %d, BLAS %d threads, want %d", inside, insideBLAS, p)
	}
	if la.Threads() != p || la.BLASThreads() != p+1 {
		t.Errorf("after: budget %d, BLAS %d threads, want %d and %d restored", la.Threads(), la.BLASThreads(), p, p+1)
	}
}
