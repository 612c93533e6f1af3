package passgp

import "gonum.org/v1/gonum/mat"

// serveRunner scores on the calling goroutine alone with no BLAS call.
func serveRunner() *runner { return &runner{threads: 1, serial: true} }

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
	b.predictNear(serveRunner(), mean, variance, nil, x)
}

// LatentShareNearSerialTo is LatentShareNearTo computed as
// PredictMeanVarSerialTo is: on the calling goroutine alone, no BLAS call.
func (b *Binary) LatentShareNearSerialTo(z, rho, near []float64, x *mat.Dense) {
	b.latentShareNear(serveRunner(), z, rho, near, x)
}
