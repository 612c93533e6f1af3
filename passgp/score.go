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
	// serial scores on the calling goroutine alone with no BLAS call
	// (kernel.SerialCrossTo, ep's serial prediction): the serving runner.
	serial bool
}

// scoreWS is one worker's workspace: a chunk of inputs, its Gram block
// against A and its test diagonal. Size O(scoreChunk·(M+d)).
type scoreWS struct {
	xc, kc []float64
	kss    []float64
	// screen's scratch: the rows it solves and their means and variances.
	idx    []int
	mu, vr []float64
	// span holds the indices of a chunk of consecutive rows.
	span []int
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
	if r.serial || la.BLASThreads() > 1 {
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
//
// With sc not nil, a row that sc.certain calls decided by its mean alone
// gets variance k(x, x), its prior variance, instead of its triangular
// solve (screen). With near not nil, near[i] is set to the row's largest
// correlation with the active inputs (Binary.NearTo) from the same Gram
// block, as g reads it (nearFromGram).
func (r *runner) predictRows(post *ep.Posterior, k kernel.Kernel, xa *mat.Dense, x Rows, rows []int, mean, variance, near []float64, g gramNear, sc *screen) {
	n := len(mean)
	if n == 0 {
		return
	}
	m, d := xa.Dims()
	if len(r.ws) < r.threads {
		r.ws = make([]scoreWS, r.threads)
	}
	chunks := (n + scoreChunk - 1) / scoreChunk
	r.parallel(chunks, func(w, c int) {
		lo := c * scoreChunk
		hi := min(lo+scoreChunk, n)
		ws := &r.ws[w]
		xc, kc, kss := ws.grow(hi-lo, d, m)
		if rows != nil {
			x.RowsTo(xc.RawMatrix().Data, rows[lo:hi])
		} else {
			ws.span = spanTo(ws.span, lo, hi)
			x.RowsTo(xc.RawMatrix().Data, ws.span)
		}
		if r.serial {
			kernel.SerialCrossTo(k, kc, xc, xa)
		} else {
			k.CrossTo(kc, xc, xa)
		}
		if near != nil {
			g.nearFromGram(near[lo:hi], kc)
		}
		k.DiagTo(kss, xc)
		switch {
		case r.serial:
			post.PredictCrossSerialTo(mean[lo:hi], variance[lo:hi], nil, kc, kss)
			return
		case sc == nil:
			post.PredictCrossTo(mean[lo:hi], variance[lo:hi], nil, kc, kss)
			return
		}
		sc.predict(post, rows, lo, mean[lo:hi], variance[lo:hi], kc, kss, &r.ws[w])
	})
}

// screen lets PASS-GP's scoring of a batch skip the predictive variance
// of candidates whose fate the mean decides: the scores serve only the
// batch's rule, and a candidate with y·m > 0 has q(y|x) = Φ(y m/√(1+v))
// decreasing in v, and v lies in [0, k(x, x)], so if q ≥ p_inc at v =
// k(x, x) it is not included whatever v is. Its variance, the O(M²) part
// of a score, is then not needed; on noisy tasks most of a pass's
// candidates are such points. The rule's decisions and counts are those
// of full scoring.
type screen struct {
	y    []float64 // labels of the rows of x
	pinc float64
}

// screenScores switches the screen on; tests compare runs without it.
var screenScores = true

// screenMargin keeps screened candidates clear of p_inc by more than
// the rounding of the variance and of Φ.
const screenMargin = 1e-9

// certain reports whether a candidate with label y, predictive mean m
// and prior variance kss is left out by the rule at every posterior
// variance in [0, kss].
func (s *screen) certain(y, m, kss float64) bool {
	return y*m > 0 && predProb(y, m, kss) >= s.pinc+screenMargin
}

// predict fills mean and variance of one chunk (source rows rows[lo:],
// Gram block kc, prior variances kss): the means of all rows, the
// variances of the rows that are not certain, by one solve on their
// rows of kc moved to its top, and k(x, x) for the others.
func (s *screen) predict(post *ep.Posterior, rows []int, lo int, mean, variance []float64, kc *mat.Dense, kss []float64, w *scoreWS) {
	post.PredictCrossTo(mean, nil, nil, kc, nil)
	raw := kc.RawMatrix()
	m := raw.Cols
	if cap(w.idx) < len(mean) {
		w.idx = make([]int, len(mean))
		w.mu, w.vr = make([]float64, len(mean)), make([]float64, len(mean))
	}
	idx := w.idx[:0]
	for i, mu := range mean {
		if s.certain(s.y[rows[lo+i]], mu, kss[i]) {
			variance[i] = kss[i]
			continue
		}
		n := len(idx)
		if n != i {
			copy(raw.Data[n*raw.Stride:n*raw.Stride+m], raw.Data[i*raw.Stride:i*raw.Stride+m])
			kss[n] = kss[i]
		}
		idx = append(idx, i)
	}
	n := len(idx)
	if n == 0 {
		return
	}
	mu, vr := w.mu[:n], w.vr[:n]
	post.PredictCrossTo(mu, vr, nil, kc.Slice(0, n, 0, m).(*mat.Dense), kss[:n])
	for j, i := range idx {
		variance[i] = vr[j]
	}
}

// predProb returns q(y|x) = Φ(y m/√(1+v)) (paper eq. 4), computed for the
// given label rather than as 1 - q(+1|x) so that it keeps its precision.
func predProb(y, m, v float64) float64 {
	return ep.Phi(y * m / sqrtPos(1+v))
}
