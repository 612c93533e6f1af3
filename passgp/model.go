package passgp

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/score"
)

// Binary is a trained binary classifier: the EP posterior on the active set.
type Binary struct {
	Kernel kernel.Kernel
	X      *mat.Dense    // active inputs (|A|×d)
	Y      []float64     // active labels ±1
	Active []int         // indices of the active points in the training data (augmented points: -1)
	Post   *ep.Posterior // ep.FromSites(Kernel, X, Y, sites) at the end of training
	// Sparse, if not nil, is the FITC posterior of TrainFITC, with the
	// active inputs as inducing inputs, and predictions (PredictTo,
	// PredictMeanVarTo, LatentTo) come from it. Post stays the active
	// set's posterior.
	Sparse *ep.FITC
	// Inducing, when Sparse is set, holds the indices into X of Sparse's
	// inducing inputs in ascending order (Options.BoundFITC's subset);
	// nil means all of X.
	Inducing []int
}

// newBinary builds the classifier for fixed sites with ep.FromSites, as
// package model does when it loads one, so that predictions are identical.
func newBinary(k kernel.Kernel, xa *mat.Dense, ya []float64, active []int, s ep.Sites) (*Binary, error) {
	post, err := ep.FromSites(k, xa, ya, s)
	if err != nil {
		return nil, err
	}
	return &Binary{Kernel: k, X: xa, Y: ya, Active: active, Post: post}, nil
}

// PredictMeanVarTo sets the predictive latent mean and variance (paper
// eq. 4) of every row of x; either may be nil. The rows are scored in fixed
// chunks on la.Threads() goroutines.
func (b *Binary) PredictMeanVarTo(mean, variance []float64, x *mat.Dense) {
	b.predict(newRunner(la.Threads()), mean, variance, x)
}

// predict is PredictMeanVarTo on r's chunks: la.Threads() workers, or
// serial (servePool).
func (b *Binary) predict(r *runner, mean, variance []float64, x *mat.Dense) {
	n, _ := x.Dims()
	if mean == nil {
		mean = make([]float64, n)
	}
	if variance == nil {
		variance = make([]float64, n)
	}
	if b.Sparse != nil {
		_ = r.predictSparse(context.Background(), b.Sparse, DenseRows(x), nil, mean[:n], variance[:n])
		return
	}
	r.Predict(b.Post, b.Kernel, b.X, DenseRows(x), nil, mean[:n], variance[:n], nil)
}

// PredictMeanVarToContext is PredictMeanVarTo for large x: it stops
// within one scoring chunk per worker when ctx ends and returns ctx's
// error, with mean and variance partly filled. Either may be nil.
func (b *Binary) PredictMeanVarToContext(ctx context.Context, mean, variance []float64, x *mat.Dense) error {
	n, _ := x.Dims()
	if mean == nil {
		mean = make([]float64, n)
	}
	if variance == nil {
		variance = make([]float64, n)
	}
	r := newRunner(la.Threads())
	if b.Sparse != nil {
		return r.predictSparse(ctx, b.Sparse, DenseRows(x), nil, mean[:n], variance[:n])
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return r.PredictContext(ctx, b.Post, b.Kernel, b.X, DenseRows(x), rows, mean[:n], variance[:n], nil)
}

// PredictTo sets prob[i] = q(y=+1|x_i) = Φ(m_i/√(1+v_i)) (paper eq. 4).
func (b *Binary) PredictTo(prob []float64, x *mat.Dense) {
	n, _ := x.Dims()
	m := make([]float64, n)
	v := make([]float64, n)
	b.PredictMeanVarTo(m, v, x)
	for i := range prob[:n] {
		prob[i] = score.Prob(1, m[i], v[i])
	}
}

// LatentTo sets z[i] = m_i/√(1+v_i), the argument of Φ in q(y=+1|x_i)
// (paper eq. 4): the quantity that decisions and exact log probabilities
// use (LatentNLP, LatentBrier).
func (b *Binary) LatentTo(z []float64, x *mat.Dense) {
	b.LatentShareTo(z, nil, x)
}

// LatentShareTo is LatentTo that also sets rho[i] (when rho is not nil)
// to v_i/k(x_i, x_i), the share of the prior variance that the posterior
// leaves at x_i, in [0, 1]: near 0 close to the active points, 1 far from
// all of them. calib.Calibration.ProbTo takes both.
func (b *Binary) LatentShareTo(z, rho []float64, x *mat.Dense) {
	b.latentShare(newRunner(la.Threads()), z, rho, x)
}

// latentShare is LatentShareTo on r's chunks.
func (b *Binary) latentShare(r *runner, z, rho []float64, x *mat.Dense) {
	n, _ := x.Dims()
	v := make([]float64, n)
	b.predict(r, z[:n], v, x)
	for i := range z[:n] {
		z[i] /= sqrtPos(1 + v[i])
	}
	if rho != nil {
		copy(rho[:n], v)
		_ = priorShares(context.Background(), b, DenseRows(x), rho[:n]) // no read error in memory
	}
}

func sqrtPos(v float64) float64 {
	if v < 0 {
		return 0
	}
	return math.Sqrt(v)
}
