package kernel

import (
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// Poly is the polynomial covariance
// k(x,x') = Var·(g·x·x' + 1)^Degree + Jitter·δ(x,x')
// with θ = [Var, Jitter] = [t1, t3]. The input scale g is fixed, not a
// hyperparameter; Gamma = 0 means g = 1/d as LIBSVM's gamma does.
type Poly struct {
	Var    float64 // t1
	Jitter float64 // t3
	Degree int     // p >= 1
	Gamma  float64 // g; 0 means 1/d
}

func (Poly) Name() string          { return "poly" }
func (k Poly) Params() []float64   { return []float64{k.Var, k.Jitter} }
func (Poly) ParamNames() []string  { return []string{"t1", "t3"} }
func (k Poly) DiagJitter() float64 { return k.Jitter }
func (k Poly) WithParams(theta []float64) Kernel {
	checkParams(k, theta)
	k.Var, k.Jitter = theta[0], theta[1]
	return k
}

// Scale returns the input scale g used for inputs of dimension d.
func (k Poly) Scale(d int) float64 {
	if k.Gamma > 0 || d == 0 {
		return k.Gamma
	}
	return 1 / float64(d)
}

func (k Poly) CrossTo(dst, x1, x2 *mat.Dense) {
	checkCross(dst, x1, x2)
	_, d := x1.Dims()
	la.GramPolyTo(dst.RawMatrix(), x1.RawMatrix(), x2.RawMatrix(), k.Var, k.Scale(d), 1, k.degree())
}

func (k Poly) TrainTo(dst, x *mat.Dense) {
	checkSquare(dst, x)
	k.CrossTo(dst, x, x)
	addDiag(dst, k.Jitter)
}

func (k Poly) DiagTo(dst []float64, x *mat.Dense) {
	n, d := x.Dims()
	rowNorms(dst[:n], x)
	g := k.Scale(d)
	for i := range dst[:n] {
		dst[i] = k.Var * la.Powi(g*dst[i]+1, k.degree())
	}
}

// GradTo: ∂K/∂log t1 = K_poly, ∂K/∂log t3 = t3 I.
func (k Poly) GradTo(dst, x *mat.Dense, j int) {
	checkSquare(dst, x)
	switch j {
	case 0:
		k.CrossTo(dst, x, x)
	case 1:
		setDiag(dst, k.Jitter)
	default:
		panic("kernel: parameter index out of range")
	}
}

func (k Poly) GradTraceTo(dst []float64, w, x *mat.Dense) {
	checkSquare(w, x)
	k.CrossGradTraceTo(dst, w, x, x)
	addJitterTrace(dst, 1, k.Jitter, w)
}

func (k Poly) degree() int {
	if k.Degree < 1 {
		panic("kernel: poly degree must be >= 1")
	}
	return k.Degree
}
