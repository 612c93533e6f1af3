package ep

import (
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// Serial prediction: the same quantities as PredictTo, PredictCrossTo and
// FITC.PredictTo, computed on the calling goroutine alone with no BLAS
// call (kernel.SerialCrossTo for K*, la's serial kernels for K*α, the
// solve L⁻¹K*ᵀ and its row norms). They are for a service that predicts
// from many goroutines at once: each call then uses one core, whatever the
// process's BLAS thread setting, and calls scale with the cores instead
// of contending for OpenBLAS's one thread pool. A call's results depend
// only on its inputs and the SIMD path, never on other calls or on thread
// settings; they agree with the BLAS path's within rounding (a different
// summation order: relative differences of order n·ε·κ(L) in the
// variance's solve).

// PredictSerialTo is PredictTo on the calling goroutine alone.
func (p *Posterior) PredictSerialTo(mean, variance, prob []float64, xs *mat.Dense) {
	if p.Kernel == nil {
		panic("ep: PredictSerialTo on a posterior without a kernel (use PredictCrossSerialTo)")
	}
	m, _ := xs.Dims()
	if m == 0 {
		return
	}
	kstar := &mat.Dense{}
	if p.n > 0 {
		kstar = mat.NewDense(m, p.n, nil)
		kernel.SerialCrossTo(p.Kernel, kstar, xs, p.X)
	}
	var kss []float64
	if variance != nil || prob != nil {
		kss = make([]float64, m)
		p.Kernel.DiagTo(kss, xs)
	}
	p.predict(mean, variance, prob, kstar, kss, m, true)
}

// PredictCrossSerialTo is PredictCrossTo on the calling goroutine alone.
func (p *Posterior) PredictCrossSerialTo(mean, variance, prob []float64, kstar *mat.Dense, kss []float64) {
	p.predictCross(mean, variance, prob, kstar, kss, true)
}

// PredictSerialTo is PredictTo on the calling goroutine alone.
func (f *FITC) PredictSerialTo(mean, variance, prob []float64, xs *mat.Dense) {
	f.predictTo(mean, variance, prob, xs, true)
}
