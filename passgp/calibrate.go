package passgp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/passgp-fast/passgp-fast/la"
)

// Calibration maps the latents z_k = m_k/√(1+v_k) of K one-against-the-
// rest classifiers (q(y=+1|x) = Φ(z_k), paper eq. 4) to class
// probabilities:
//
//	K = 1 (binary):  s(+1|x) = σ(A·z + B[0])            (Platt scaling)
//	K >= 2:          s(k|x) ∝ exp(A·z_k + B[k])        (multinomial logistic)
//
//	p(k|x) = (1 − Eps)·s(k|x) + Eps/C,  C = max(K, 2) classes,
//
// with A > 0, so that each class's probability increases with its own
// latent. Eps is the share of labels that no latent explains, as label
// noise gives: a logistic map alone goes to 0 and 1 in the tails, while
// with a fraction ε of flipped labels the true probabilities stay within
// [ε, 1 − ε], so Platt scaling is over-confident there and, to fit the
// tails, too flat in between (docs/passgp.md). The mixture leaves the
// decision unchanged (it is monotone in s). It is fitted by FitCalibration on held-out latents of the
// training points (Result.HeldOut), never on test data. The raw
// one-against-the-rest probabilities Φ(z_k) are under-confident away from
// the active set and, normalised over K classes, give too little mass to
// the right class (docs/passgp.md); the fitted map corrects both.
type Calibration struct {
	A   float64
	B   []float64
	Eps float64 // in [0, 1); 0 in model files before format version 4
}

// Classes returns K, the number of latents the calibration takes.
func (c *Calibration) Classes() int { return len(c.B) }

// ProbTo sets row i of dst to the calibrated probabilities of row i of z
// (n×K). For K = 1, dst is n×2: [p(−1|x), p(+1|x)], both computed
// directly (neither as one minus the other). Rows sum to one.
func (c *Calibration) ProbTo(dst, z *mat.Dense) {
	n, k := z.Dims()
	if k != len(c.B) {
		panic("passgp: Calibration.ProbTo: z has the wrong number of columns")
	}
	want := max(k, 2)
	if r, cc := dst.Dims(); r != n || cc != want {
		panic("passgp: Calibration.ProbTo: destination has the wrong shape")
	}
	for i := 0; i < n; i++ {
		zr, out := z.RawRowView(i), dst.RawRowView(i)
		if k == 1 {
			u := c.A*zr[0] + c.B[0]
			out[0], out[1] = sigmoid(-u), sigmoid(u)
		} else {
			for j, v := range zr {
				out[j] = c.A*v + c.B[j]
			}
			lse := floats.LogSumExp(out)
			for j := range out {
				out[j] = math.Exp(out[j] - lse)
			}
		}
		if c.Eps > 0 {
			for j := range out {
				out[j] = (1-c.Eps)*out[j] + c.Eps/float64(want)
			}
		}
	}
}

// Decide returns the class of largest calibrated probability for one row
// of latents (K = 1: 1 for the positive class, 0 otherwise).
func (c *Calibration) Decide(z []float64) int {
	if len(z) == 1 {
		if c.A*z[0]+c.B[0] > 0 {
			return 1
		}
		return 0
	}
	best, bv := 0, math.Inf(-1)
	for j, v := range z {
		if u := c.A*v + c.B[j]; u > bv {
			best, bv = j, u
		}
	}
	return best
}

// calibrationRidge is the weight of a weak Gaussian prior on the biases,
// on log A and on logit Eps about logit(epsPrior) (in units of the mean
// log-likelihood per point): it keeps the fit finite when the held-out
// latents separate the classes or explain every label.
const (
	calibrationRidge = 1e-4
	epsPrior         = 1e-3
)

// FitCalibration fits a Calibration to the held-out latents z (N×K) of
// the training points and their true classes truth (K = 1: 1 for the
// positive class, 0 for the negative; K >= 2: the column of the true
// class) by maximum likelihood, with a weak prior that keeps it finite on
// separable data; gonum/optimize's L-BFGS minimises it over (log A, B,
// logit Eps).
func FitCalibration(z *mat.Dense, truth []int) (*Calibration, error) {
	n, k := z.Dims()
	if n != len(truth) || n == 0 {
		return nil, fmt.Errorf("passgp: FitCalibration: %d latents and %d classes", n, len(truth))
	}
	nc := max(k, 2)
	for i, t := range truth {
		if t < 0 || t >= nc {
			return nil, fmt.Errorf("passgp: FitCalibration: class %d of point %d out of range", t, i)
		}
	}
	obj := calibrationObjective(z, truth)
	p0 := make([]float64, k+2)
	p0[k+1] = logit(epsPrior)
	prob := optimize.Problem{
		Func: func(p []float64) float64 { return obj(p, nil) },
		Grad: func(g, p []float64) { obj(p, g) },
	}
	res, err := optimize.Minimize(prob, p0, &optimize.Settings{GradientThreshold: 1e-8, MajorIterations: 500}, &optimize.LBFGS{})
	if err != nil && (res == nil || !isFinite(res.X)) {
		return nil, fmt.Errorf("passgp: FitCalibration: %w", err)
	}
	if !isFinite(res.X) {
		return nil, errors.New("passgp: FitCalibration: the fit did not stay finite")
	}
	return &Calibration{A: math.Exp(res.X[0]), B: slices.Clone(res.X[1 : k+1]), Eps: sigmoid(res.X[k+1])}, nil
}

// calibrationObjective returns FitCalibration's objective of the
// parameters p = [log A, B_1..B_K, logit Eps] (and its gradient, when grad
// is not nil): the mean negative log-likelihood −log((1−ε)s_t + ε/C) of
// the true classes plus the weak prior.
func calibrationObjective(z *mat.Dense, truth []int) func(p, grad []float64) float64 {
	n, k := z.Dims()
	nc := float64(max(k, 2))
	work := make([]float64, k)
	return func(p, grad []float64) float64 {
		a, b, l := math.Exp(p[0]), p[1:k+1], p[k+1]
		eps := sigmoid(l)
		logKeep, logUnif := -softplus(l), -softplus(-l)-math.Log(nc) // log(1−ε), log(ε/C)
		if grad != nil {
			clear(grad)
		}
		var nll float64
		for i := 0; i < n; i++ {
			zr := z.RawRowView(i)
			t := truth[i]
			// log s_t of the logistic part, then r = (1−ε)s_t/m, the
			// share of the mixture m = (1−ε)s_t + ε/C that it explains.
			var logS float64
			if k == 1 {
				sg := -1.0
				if t == 1 {
					sg = 1
				}
				u := a*zr[0] + b[0]
				logS = -softplus(-sg * u)
				lm := logAddExp(logKeep+logS, logUnif)
				nll -= lm
				if grad != nil {
					r := math.Exp(logKeep + logS - lm)
					g := -r * sg * sigmoid(-sg*u) // d(−log m)/du
					grad[0] += g * a * zr[0]
					grad[1] += g
					grad[2] -= (1-eps)*(1-r) - eps*r
				}
				continue
			}
			for j, v := range zr {
				work[j] = a*v + b[j]
			}
			lse := floats.LogSumExp(work)
			logS = work[t] - lse
			lm := logAddExp(logKeep+logS, logUnif)
			nll -= lm
			if grad != nil {
				r := math.Exp(logKeep + logS - lm)
				for j, v := range zr {
					d := math.Exp(work[j] - lse) // d(−log s_t)/du_j = s_j − [j = t]
					if j == t {
						d -= 1
					}
					grad[0] += r * d * a * v
					grad[1+j] += r * d
				}
				grad[k+1] -= (1-eps)*(1-r) - eps*r
			}
		}
		nll /= float64(n)
		dl := l - logit(epsPrior)
		reg := 0.5 * calibrationRidge * (p[0]*p[0] + floats.Dot(b, b) + dl*dl)
		if grad != nil {
			floats.Scale(1/float64(n), grad)
			grad[0] += calibrationRidge * p[0]
			for j := range b {
				grad[1+j] += calibrationRidge * b[j]
			}
			grad[k+1] += calibrationRidge * dl
		}
		return nll + reg
	}
}

// logAddExp returns log(e^x + e^y) without overflow.
func logAddExp(x, y float64) float64 {
	if x < y {
		x, y = y, x
	}
	return x + math.Log1p(math.Exp(y-x))
}

func logit(p float64) float64 { return math.Log(p / (1 - p)) }

func sigmoid(u float64) float64 {
	if u >= 0 {
		return 1 / (1 + math.Exp(-u))
	}
	e := math.Exp(u)
	return e / (1 + e)
}

// softplus returns log(1 + e^u) without overflow.
func softplus(u float64) float64 {
	if u > 0 {
		return u + math.Log1p(math.Exp(-u))
	}
	return math.Log1p(math.Exp(u))
}

func isFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// MeanNLL returns −mean_i log p(truth_i | z_i) under c, computed in log
// space (exact where the probabilities underflow). truth is as in
// FitCalibration.
func (c *Calibration) MeanNLL(z *mat.Dense, truth []int) float64 {
	n, k := z.Dims()
	work := make([]float64, k)
	var s float64
	for i := 0; i < n; i++ {
		zr := z.RawRowView(i)
		var logS float64
		if k == 1 {
			u := c.A*zr[0] + c.B[0]
			if truth[i] == 1 {
				logS = -softplus(-u)
			} else {
				logS = -softplus(u)
			}
		} else {
			for j, v := range zr {
				work[j] = c.A*v + c.B[j]
			}
			logS = work[truth[i]] - floats.LogSumExp(work)
		}
		if c.Eps > 0 {
			logS = logAddExp(math.Log1p(-c.Eps)+logS, math.Log(c.Eps/float64(max(k, 2))))
		}
		s -= logS
	}
	return s / float64(n)
}

// CalibrateBinary fits the Platt calibration of a trained binary
// classifier b on its held-out latents on the training data x, y (±1): the
// fit Train makes (Result.Calibration), for a classifier trained earlier.
// It has no image geometry: for a classifier of an invariance stage it
// uses the plain cavities, which still see each image's translations;
// Train and TrainAugmented leave those out (groupHeldOut).
func CalibrateBinary(b *Binary, x *mat.Dense, y []float64) (*Calibration, error) {
	n, _ := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("passgp: CalibrateBinary: %d labels for %d rows", len(y), n)
	}
	z, _, err := heldOutLatents(context.Background(), &runner{threads: la.Threads()}, b, x, nil)
	if err != nil {
		return nil, err
	}
	truth := make([]int, n)
	for i, v := range y {
		if v > 0 {
			truth[i] = 1
		}
	}
	return FitCalibration(mat.NewDense(n, 1, z), truth)
}
