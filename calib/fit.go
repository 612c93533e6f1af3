package calib

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/passgp-fast/passgp-fast/internal/onepass"
	"github.com/passgp-fast/passgp-fast/la"
)

// calibrationRidge is the weight of a weak Gaussian prior on the biases,
// on log A and on logit Eps about logit(epsPrior) (in units of the mean
// log-likelihood per point): it keeps the fit finite when the held-out
// latents separate the classes or explain every label.
const (
	calibrationRidge = 1e-4
	epsPrior         = 1e-3
)

// calibrationGradTol is the fit's stopping threshold on the largest
// gradient component of the mean negative log-likelihood: tighter, and
// the first start on the noisy 10-class task's latents (N = 20,000)
// reaches no better minimum (A to 6 digits, the objective to 1e-10) but
// ends in a failed line search after three times the evaluations
// (docs/performance.md).
const calibrationGradTol = 1e-6

// calibrationSteepA and calibrationSteepEps are Fit's second
// start: a steep map with a label-noise share of 10%, near the better
// optimum of the noisy 3-class task (A 4.9, ε 0.16) and of
// TestFitLabelNoise's data (A 3.1, ε 0.1).
const (
	calibrationSteepA   = 4
	calibrationSteepEps = 0.1
)

// calibrationBounded are Fit's further starts for K = 1:
// [A, ε, κ] of maps whose probabilities stop near 1/2, from above (a
// ceiling of 0.55) or from below (a floor of 0.45). Where the latent's
// upper tail is mostly negative, the best map has a ceiling below 1/2,
// and L-BFGS from a symmetric start stays at a sigmoid that reaches 1
// (TestFitTail: mean NLL 0.390 against 0.361).
var calibrationBounded = [][3]float64{{calibrationSteepA, 0.5, 0.1}, {calibrationSteepA, 0.5, 0.9}}

// Fit fits a Calibration to the held-out latents z (N×K) of
// the training points, the shares rho (N×K) of their prior variances
// that those held-out predictions leave (nil: a map of z alone, without
// Balance), and their true classes truth (K = 1: 1 for the positive
// class, 0 for the negative; K >= 2: the column of the true class) by
// maximum likelihood, with a weak prior that keeps it finite on separable
// data; gonum/optimize's L-BFGS minimises it over (log A, B, logit Eps,
// and for K = 1 logit Kappa) from two starts (K = 1: four,
// calibrationBounded), and the lowest minimum is kept. Balance is the
// class shares of truth. For K >= 2 every class has its own slope
// (Slopes), the vector scaling of Guo et al. (2017): the K one-against-
// the-rest latents come from K posteriors, of different θ and, where the
// FITC pass is kept for some classes only, of different kinds, so their
// scales differ. On the development protocol a slope per class against
// one shared slope (kept before only where the kinds differ) is equal on
// gen-multiclass, Vehicle, Glass and USPS, better in NLP by more than one
// standard error on DNA, Satellite and Shuttle and worse on Vowel
// (docs/decisions.md).
func Fit(z, rho *mat.Dense, truth []int) (*Calibration, error) {
	_, k := z.Dims()
	balance, err := checkInput(z, rho, truth)
	if err != nil {
		return nil, err
	}
	x, err := minimize(z, rho, truth, balance)
	if err != nil {
		return nil, err
	}
	c := &Calibration{A: math.Exp(x[0]), B: slices.Clone(x[1 : k+1]), Eps: sigmoid(x[k+1]), Balance: balance}
	if k == 1 {
		c.Kappa = sigmoid(x[k+2])
	}
	if ns := slopeParams(k); ns > 0 {
		c.Slopes = make([]float64, k)
		for j, d := range x[len(x)-ns:] {
			c.Slopes[j] = c.A * math.Exp(d)
		}
	}
	return c, nil
}

// checkInput checks Fit's input and returns the
// class shares of truth (nil without shares rho).
func checkInput(z, rho *mat.Dense, truth []int) ([]float64, error) {
	n, k := z.Dims()
	if n != len(truth) || n == 0 {
		return nil, fmt.Errorf("calib: Fit: %d latents and %d classes", n, len(truth))
	}
	nc := max(k, 2)
	for i, t := range truth {
		if t < 0 || t >= nc {
			return nil, fmt.Errorf("calib: Fit: class %d of point %d out of range", t, i)
		}
	}
	if rho == nil {
		return nil, nil
	}
	if rn, rk := rho.Dims(); rn != n || rk != k {
		return nil, fmt.Errorf("calib: Fit: shares %d×%d for latents %d×%d", rn, rk, n, k)
	}
	if !isFinite(rho.RawMatrix().Data) {
		return nil, errors.New("calib: Fit: a prior-variance share is not finite")
	}
	return classShares(truth, k), nil
}

// minimize returns the parameters of the calibration's
// likelihood minimum (objective).
func minimize(z, rho *mat.Dense, truth []int, balance []float64) ([]float64, error) {
	_, k := z.Dims()
	// With label noise the likelihood has two optima: a steep map with a
	// large label-noise share ε and a flat one with a small ε. L-BFGS
	// from A = 1, ε = epsPrior alone finds either, depending on small
	// changes of the latents (noisy 3-class task: A 4.65, ε 0.156 or A
	// 1.87, ε 0.076, held-out ECE 0.4% or 6.3%), so it also starts from
	// a steep, noisy map; a binary map also starts from maps bounded near
	// 1/2 (calibrationBounded). The fits are independent (each has its
	// objective's buffers) and run side by side when the thread budget
	// allows; the lowest minimum is kept, the earliest start's on a tie.
	// Each start is [A, ε, κ]; κ is used for K = 1 only.
	starts := [][3]float64{{1, epsPrior, 0.5}, {calibrationSteepA, calibrationSteepEps, 0.5}}
	if k == 1 {
		starts = append(starts, calibrationBounded...)
	}
	results := make([]*optimize.Result, len(starts))
	errs := make([]error, len(starts))
	fit := func(j int) {
		prob := onepass.Problem(objective(z, rho, truth, balance))
		p0 := make([]float64, calibrationParams(k)+slopeParams(k))
		p0[0], p0[k+1] = math.Log(starts[j][0]), logit(starts[j][1])
		if k == 1 {
			p0[k+2] = logit(starts[j][2])
		}
		results[j], errs[j] = optimize.Minimize(prob, p0, &optimize.Settings{GradientThreshold: calibrationGradTol, MajorIterations: 500}, &optimize.LBFGS{})
	}
	la.ForEach(la.Workers(len(starts)), len(starts), func(_, j int) { fit(j) })
	var best *optimize.Result
	var firstErr error
	for j, res := range results {
		if errs[j] != nil && (res == nil || !isFinite(res.X)) {
			firstErr = cmp.Or(firstErr, errs[j])
			continue
		}
		if isFinite(res.X) && (best == nil || res.F < best.F) {
			best = res
		}
	}
	if best == nil && firstErr != nil {
		return nil, fmt.Errorf("calib: Fit: %w", firstErr)
	}
	if best == nil {
		return nil, errors.New("calib: Fit: the fit did not stay finite")
	}
	return best.X, nil
}

// slopeParams returns the number of per-class log-slope offsets δ_k that
// Fit fits for K latents, after calibrationParams' parameters:
// one per class for K >= 2 (Calibration.Slopes = A·exp(δ_k)), none for
// K = 1. The weak prior on log A and on the δ_k shares a common scale
// between them, so A need not be the slopes' centre.
func slopeParams(k int) int {
	if k >= 2 {
		return k
	}
	return 0
}

// calibrationParams returns the number of parameters Fit fits
// for K latents: log A, B_1..B_K and logit Eps, and for K = 1 logit Kappa.
func calibrationParams(k int) int {
	if k == 1 {
		return k + 3
	}
	return k + 2
}

// classShares returns Calibration.Balance for the classes truth of K
// latents: the share of class 1 for K = 1, of every class otherwise.
func classShares(truth []int, k int) []float64 {
	cnt := make([]float64, max(k, 2))
	for _, t := range truth {
		cnt[t]++
	}
	floats.Scale(1/float64(len(truth)), cnt)
	if k == 1 {
		return cnt[1:]
	}
	return cnt
}

// FitBinary fits the Platt calibration of a binary classifier
// on the held-out latents z and prior-variance shares rho of its training
// points, whose labels are y (±1): the fit passgp.Train makes from
// Result.HeldOut and HeldOutShare, for latents stored with a classifier
// (a checkpoint's, say).
func FitBinary(z, rho, y []float64) (*Calibration, error) {
	n := len(y)
	if len(z) != n || len(rho) != n || n == 0 {
		return nil, fmt.Errorf("calib: FitBinary: %d latents and %d shares for %d labels", len(z), len(rho), n)
	}
	return Fit(mat.NewDense(n, 1, z), mat.NewDense(n, 1, rho), BinaryTruth(y))
}

// BinaryTruth returns Fit's classes of a binary classifier's labels ±1:
// 1 for positive, 0 otherwise.
func BinaryTruth(y []float64) []int {
	t := make([]int, len(y))
	for i, v := range y {
		if v > 0 {
			t[i] = 1
		}
	}
	return t
}
