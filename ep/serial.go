package ep

import (
	"gonum.org/v1/gonum/mat"
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
	p.predictTo(mean, variance, prob, xs, true)
}

// PredictCrossSerialTo is PredictCrossTo on the calling goroutine alone.
func (p *Posterior) PredictCrossSerialTo(mean, variance, prob []float64, kstar *mat.Dense, kss []float64) {
	p.predictCross(mean, variance, prob, kstar, kss, true)
}

// PredictSerialTo is PredictTo on the calling goroutine alone.
func (f *FITC) PredictSerialTo(mean, variance, prob []float64, xs *mat.Dense) {
	f.predictTo(mean, variance, prob, xs, true)
}
