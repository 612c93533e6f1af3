package main

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// logZ holds the marginal likelihood approximations of paper Section 5,
// as logarithms.
type logZ struct {
	// EPA is log Z_EP,A, the EP evidence of the active set alone.
	EPA float64
	// APP is log Z_APP = log Z_EP,A + Σ_{i∈I} log q(y_i|x_i): the
	// inactive points' predictive probabilities (eq. 4) as if independent.
	APP float64
	// ACC is log Z_ACC = log Z_EP,A + log Z_EP(y_I; m_I|A, C_II|A): EP on
	// the inactive set with the prior conditioned on the active posterior
	// (NaN unless requested).
	ACC float64
	// Inactive is |I|; ACCNotConverged is set when the inactive-set EP
	// hit its sweep cap (its last iterate was used).
	Inactive        int
	ACCNotConverged bool
}

// marginalLikelihood computes Z_EP,A, Z_APP and, if acc is set, Z_ACC for
// the classifier b trained on the rows of x with labels y (±1); the
// inactive set I is every row of x that is not in b.Active. Z_ACC needs an
// |I|×|I| matrix and refuses when its n²·8 bytes exceed maxBytes (0 means
// DefaultMaxFullBytes). epo configures the inactive-set EP (nil: defaults).
func marginalLikelihood(b *passgp.Binary, x *mat.Dense, y []float64, acc bool, epo *ep.Options, maxBytes int64) (*logZ, error) {
	return marginalLikelihoodContext(context.Background(), b, x, y, acc, epo, maxBytes)
}

// marginalLikelihoodContext is marginalLikelihood that stops when ctx is
// done: the scoring of the inactive set within one chunk per worker, the
// inactive-set EP of Z_ACC within one step of a sweep. It then returns
// ctx.Err().
func marginalLikelihoodContext(ctx context.Context, b *passgp.Binary, x *mat.Dense, y []float64, acc bool, epo *ep.Options, maxBytes int64) (*logZ, error) {
	n, d := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("%d labels for %d rows", len(y), n)
	}
	in := make([]bool, n)
	for _, a := range b.Active {
		if a >= n {
			return nil, fmt.Errorf("active index %d out of range for %d rows", a, n)
		}
		if a >= 0 {
			in[a] = true
		}
	}
	var idx []int
	for i := range in {
		if !in[i] {
			idx = append(idx, i)
		}
	}
	z := &logZ{EPA: b.Post.LogZ, APP: b.Post.LogZ, ACC: math.NaN(), Inactive: len(idx)}
	if len(idx) == 0 {
		z.ACC = z.EPA
		return z, nil
	}
	yi := make([]float64, len(idx))
	xi := mat.NewDense(len(idx), d, nil)
	for i, j := range idx {
		yi[i] = y[j]
		xi.SetRow(i, x.RawRowView(j))
	}
	mean := make([]float64, len(idx))
	vr := make([]float64, len(idx))
	// Z_APP and Z_ACC are of the active set's posterior (Post), also for a
	// classifier that predicts from a FITC posterior.
	active := &passgp.Binary{Kernel: b.Kernel, X: b.X, Y: b.Y, Active: b.Active, Post: b.Post}
	if err := active.PredictMeanVarToContext(ctx, mean, vr, xi); err != nil {
		return nil, err
	}
	for i := range idx {
		z.APP += ep.LogPhi(yi[i] * mean[i] / math.Sqrt(1+vr[i]))
	}
	if !acc {
		return z, nil
	}
	if maxBytes == 0 {
		maxBytes = passgp.DefaultMaxFullBytes
	}
	if need := int64(len(idx)) * int64(len(idx)) * 8; need > maxBytes {
		return z, fmt.Errorf("Z_ACC's inactive-set EP on %d points needs %d MiB for one matrix, over the limit of %d MiB", len(idx), need>>20, maxBytes>>20)
	}
	mI, cII, err := conditionalPrior(b, xi)
	if err != nil {
		return z, err
	}
	var o ep.Options
	if epo != nil {
		o = *epo
	}
	post, err := ep.InferCovContext(ctx, cII, mI, yi, nil, &o)
	var nc *ep.NotConvergedError
	if errors.As(err, &nc) && nc.Post != nil {
		post, z.ACCNotConverged = nc.Post, true
	} else if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return z, fmt.Errorf("Z_ACC inactive-set EP: %w", err)
	}
	z.ACC = z.EPA + post.LogZ
	return z, nil
}

// conditionalPrior returns m_I|A = K_IA (K_AA + C̃_AA)⁻¹ m̃_A = K_IA α and
// C_II|A = K_II − K_IA (K_AA + C̃_AA)⁻¹ K_AI (paper Section 5), the latter
// as K_II − VᵀV with V = L \ (S^½ K_AI), L = chol(I + S^½ K_AA S^½), which
// stays finite for zero site precisions. K_II carries the jitter: the
// inactive points are training points.
func conditionalPrior(b *passgp.Binary, xi *mat.Dense) (mean []float64, cov *mat.Dense, err error) {
	m, _ := b.X.Dims()
	ni, _ := xi.Dims()
	k := b.Kernel
	sq := make([]float64, m)
	for i, t := range b.Post.Sites.Tau {
		sq[i] = math.Sqrt(math.Max(t, 0))
	}
	bm := mat.NewDense(m, m, nil)
	k.TrainTo(bm, b.X)
	braw := bm.RawMatrix()
	for i := 0; i < m; i++ {
		row := braw.Data[i*braw.Stride : i*braw.Stride+m]
		for j := range row {
			row[j] *= sq[i] * sq[j]
		}
		row[i]++
	}
	if !la.Cholesky(braw) {
		return nil, nil, errors.New("I + S½KS½ of the active set is not positive definite")
	}
	kai := mat.NewDense(m, ni, nil)
	k.CrossTo(kai, b.X, xi)
	kraw := kai.RawMatrix()
	mean = make([]float64, ni)
	blas64.Gemv(blas.Trans, 1, kraw, blas64.Vector{N: m, Inc: 1, Data: b.Post.Alpha}, 0, blas64.Vector{N: ni, Inc: 1, Data: mean})
	for i := 0; i < m; i++ {
		row := kraw.Data[i*kraw.Stride : i*kraw.Stride+ni]
		for j := range row {
			row[j] *= sq[i]
		}
	}
	blas64.Trsm(blas.Left, blas.NoTrans, 1, blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: m, Stride: braw.Stride, Data: braw.Data}, kraw)
	cov = mat.NewDense(ni, ni, nil)
	k.TrainTo(cov, xi)
	blas64.Gemm(blas.Trans, blas.NoTrans, -1, kraw, kraw, 1, cov.RawMatrix())
	return mean, cov, nil
}
