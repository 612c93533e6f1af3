package passgp

import (
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
)

// runner holds what a training run shares between its stages: the number
// of worker goroutines and the reusable scoring workspaces.
type runner struct {
	threads int
	ws      []scoreWS
}

// scoreWS is one worker's workspace: a chunk of inputs, its Gram block
// against A and its test diagonal. Size O(scoreChunk·(M+d)).
type scoreWS struct {
	xc, kc []float64
	kss    []float64
}

// grow sizes w for a chunk of rows points: exactly, so that predicting a
// single point does not allocate a full chunk's Gram block.
func (w *scoreWS) grow(rows, d, m int) (xc, kc *mat.Dense, kss []float64) {
	if cap(w.xc) < rows*d {
		w.xc = make([]float64, rows*d)
	}
	if cap(w.kc) < rows*m {
		w.kc = make([]float64, rows*m)
	}
	if cap(w.kss) < rows {
		w.kss = make([]float64, rows)
	}
	return mat.NewDense(rows, d, w.xc[:rows*d]), mat.NewDense(rows, m, w.kc[:rows*m]), w.kss[:rows]
}

// parallel runs f(c) for c = 0..n-1 on up to r.threads goroutines. Each c
// must write disjoint outputs, so the result does not depend on the number
// of goroutines. It starts several only when BLAS is single-threaded
// (la.PoolWorkers): with a multi-threaded BLAS every chunk's solve already
// uses the cores. The process-wide BLAS setting is the application's and is
// never changed here, so any number of callers may run at once.
func (r *runner) parallel(n int, f func(worker, c int)) {
	workers := r.threads
	if la.BLASThreads() > 1 {
		workers = 1
	}
	forEach(workers, n, f)
}

// forEach runs f(worker, c) for c = 0..n-1 on min(workers, n) goroutines
// (in this goroutine when that is at most 1), handing out c in order;
// worker identifies the goroutine, for per-worker scratch.
func forEach(workers, n int, f func(worker, c int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for c := 0; c < n; c++ {
			f(0, c)
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
				c := int(next.Add(1)) - 1
				if c >= n {
					return
				}
				f(w, c)
			}
		}(w)
	}
	wg.Wait()
}

// predictRows sets mean[i], variance[i] to the EP predictive latent
// marginal (paper eq. 4) of row rows[i] of x (all rows if rows is nil) under
// post, the posterior on the active inputs xa with kernel k. Each chunk of
// scoreChunk rows costs one Gram block K(chunk, A) and one triangular solve
// with scoreChunk right-hand sides inside PredictCrossTo.
func (r *runner) predictRows(post *ep.Posterior, k kernel.Kernel, xa, x *mat.Dense, rows []int, mean, variance []float64) {
	n := len(mean)
	if n == 0 {
		return
	}
	m, d := xa.Dims()
	if len(r.ws) < r.threads {
		r.ws = make([]scoreWS, r.threads)
	}
	xr := x.RawMatrix()
	chunks := (n + scoreChunk - 1) / scoreChunk
	r.parallel(chunks, func(w, c int) {
		lo := c * scoreChunk
		hi := min(lo+scoreChunk, n)
		xc, kc, kss := r.ws[w].grow(hi-lo, d, m)
		xcr := xc.RawMatrix()
		for i := lo; i < hi; i++ {
			src := i
			if rows != nil {
				src = rows[i]
			}
			copy(xcr.Data[(i-lo)*d:(i-lo+1)*d], xr.Data[src*xr.Stride:src*xr.Stride+d])
		}
		k.CrossTo(kc, xc, xa)
		k.DiagTo(kss, xc)
		post.PredictCrossTo(mean[lo:hi], variance[lo:hi], nil, kc, kss)
	})
}

// predProb returns q(y|x) = Φ(y m/√(1+v)) (paper eq. 4), computed for the
// given label rather than as 1 - q(+1|x) so that it keeps its precision.
func predProb(y, m, v float64) float64 {
	return ep.Phi(y * m / sqrtPos(1+v))
}
