package passgp

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/passgp-fast/passgp-fast/la"
)

// Calibration maps the latents z_k = m_k/√(1+v_k) of K one-against-the-
// rest classifiers (q(y=+1|x) = Φ(z_k), paper eq. 4) to class
// probabilities:
//
//	K = 1 (binary):  p(+1|x) = σ(A·z + B[0])            (Platt scaling)
//	K >= 2:          p(k|x) ∝ exp(A·z_k + B[k])        (multinomial logistic)
//
// with A > 0, so that each class's probability increases with its own
// latent. It is fitted by FitCalibration on held-out latents of the
// training points (Result.HeldOut), never on test data. The raw
// one-against-the-rest probabilities Φ(z_k) are under-confident away from
// the active set and, normalised over K classes, give too little mass to
// the right class (docs/passgp.md); the fitted map corrects both.
type Calibration struct {
	A float64
	B []float64
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
			continue
		}
		for j, v := range zr {
			out[j] = c.A*v + c.B[j]
		}
		lse := floats.LogSumExp(out)
		for j := range out {
			out[j] = math.Exp(out[j] - lse)
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

// calibrationRidge is the weight of a weak Gaussian prior on the biases
// and on log A (in units of the mean log-likelihood per point): it keeps
// the fit finite when the held-out latents separate the classes.
const calibrationRidge = 1e-4

// FitCalibration fits a Calibration to the held-out latents z (N×K) of
// the training points and their true classes truth (K = 1: 1 for the
// positive class, 0 for the negative; K >= 2: the column of the true
// class) by maximum likelihood, with a weak prior that keeps it finite on
// separable data. The objective is convex in (log A, B) up to the
// parameterisation of A; gonum/optimize's L-BFGS minimises it.
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
	nb := k
	work := make([]float64, nc)
	// Parameters: p[0] = log A, p[1:] = B.
	f := func(p, grad []float64) float64 {
		a := math.Exp(p[0])
		b := p[1:]
		if grad != nil {
			clear(grad)
		}
		var nll float64
		for i := 0; i < n; i++ {
			zr := z.RawRowView(i)
			t := truth[i]
			if k == 1 {
				// −log σ(s·u), s = ±1.
				u := a*zr[0] + b[0]
				s := -1.0
				if t == 1 {
					s = 1
				}
				nll += softplus(-s * u)
				if grad != nil {
					g := -s * sigmoid(-s*u) // d/du
					grad[0] += g * a * zr[0]
					grad[1] += g
				}
				continue
			}
			for j, v := range zr {
				work[j] = a*v + b[j]
			}
			lse := floats.LogSumExp(work)
			nll += lse - work[t]
			if grad != nil {
				for j, v := range zr {
					pj := math.Exp(work[j] - lse)
					d := pj
					if j == t {
						d -= 1
					}
					grad[0] += d * a * v
					grad[1+j] += d
				}
			}
		}
		nll /= float64(n)
		reg := 0.5 * calibrationRidge * (p[0]*p[0] + floats.Dot(b, b))
		if grad != nil {
			floats.Scale(1/float64(n), grad)
			grad[0] += calibrationRidge * p[0]
			for j := range b {
				grad[1+j] += calibrationRidge * b[j]
			}
		}
		return nll + reg
	}
	p0 := make([]float64, 1+nb)
	prob := optimize.Problem{
		Func: func(p []float64) float64 { return f(p, nil) },
		Grad: func(g, p []float64) { f(p, g) },
	}
	res, err := optimize.Minimize(prob, p0, &optimize.Settings{GradientThreshold: 1e-8, MajorIterations: 500}, &optimize.LBFGS{})
	if err != nil && (res == nil || !isFinite(res.X)) {
		return nil, fmt.Errorf("passgp: FitCalibration: %w", err)
	}
	if !isFinite(res.X) {
		return nil, errors.New("passgp: FitCalibration: the fit did not stay finite")
	}
	return &Calibration{A: math.Exp(res.X[0]), B: append([]float64(nil), res.X[1:]...)}, nil
}

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
		if k == 1 {
			u := c.A*zr[0] + c.B[0]
			if truth[i] == 1 {
				s += softplus(-u)
			} else {
				s += softplus(u)
			}
			continue
		}
		for j, v := range zr {
			work[j] = c.A*v + c.B[j]
		}
		s += floats.LogSumExp(work) - work[truth[i]]
	}
	return s / float64(n)
}

// CalibrateBinary fits the Platt calibration of a trained binary
// classifier b on its held-out latents on the training data x, y (±1): the
// fit Train makes (Result.Calibration), for a classifier trained earlier.
func CalibrateBinary(b *Binary, x *mat.Dense, y []float64) (*Calibration, error) {
	n, _ := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("passgp: CalibrateBinary: %d labels for %d rows", len(y), n)
	}
	z, err := heldOutLatents(context.Background(), &runner{threads: la.Threads()}, b, x)
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
