package passgp

import (
	"sync"

	"github.com/passgp-fast/passgp-fast/score"
	"gonum.org/v1/gonum/mat"
)

// servePool recycles the serial runners and their scoring workspaces (a
// chunk's Gram block, 2 MB at |A| = 1000), so that a service's calls do
// not allocate one each. Every value a workspace holds is overwritten
// before it is read, so reuse changes no result.
var servePool = sync.Pool{New: func() any { return &runner{score.Runner{Threads: 1, Serial: true}} }}

// serving runs f with a serial runner: on the calling goroutine alone,
// no BLAS call.
func serving(f func(r *runner)) {
	r := servePool.Get().(*runner)
	defer servePool.Put(r)
	f(r)
}

// PredictMeanVarSerialTo is PredictMeanVarTo computed on the calling
// goroutine alone, with no BLAS call and no worker goroutines: the Gram
// blocks by kernel.SerialCrossTo, the mean and the triangular solve of
// the variance by ep's serial prediction (la.SerialSolveLowerTransRightTo).
// It is the form for a service that predicts from many goroutines at
// once: each call uses one core whatever the process's BLAS setting, so
// calls scale with the cores. Its results depend only on b, x and the
// SIMD path (bit for bit, whichever goroutine calls and however many run
// at once) and agree with PredictMeanVarTo's within rounding.
func (b *Binary) PredictMeanVarSerialTo(mean, variance []float64, x *mat.Dense) {
	serving(func(r *runner) { b.predict(r, mean, variance, x) })
}

// LatentShareSerialTo is LatentShareTo computed as PredictMeanVarSerialTo
// is: on the calling goroutine alone, no BLAS call.
func (b *Binary) LatentShareSerialTo(z, rho []float64, x *mat.Dense) {
	serving(func(r *runner) { b.latentShare(r, z, rho, x) })
}
