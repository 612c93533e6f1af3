package kernel

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Kernel is a covariance function with positive hyperparameters θ, given in
// the paper's order (Params). Implementations are immutable values.
type Kernel interface {
	// Name is "se", "se+lin", "se+bias", "seard", "seard+bias" or "poly".
	Name() string
	// Params returns a copy of θ in the paper's order.
	Params() []float64
	// ParamNames names the entries of Params.
	ParamNames() []string
	// WithParams returns a kernel of the same kind with θ replaced.
	// It panics if len(theta) != len(Params()).
	WithParams(theta []float64) Kernel
	// DiagJitter is the constant added to the training diagonal.
	DiagJitter() float64

	// CrossTo sets dst (n1×n2) to the noise-free cross-covariance K(x1, x2).
	CrossTo(dst, x1, x2 *mat.Dense)
	// TrainTo sets dst (n×n) to the training covariance K(x, x) + jitter·I.
	TrainTo(dst, x *mat.Dense)
	// DiagTo sets dst[i] = k(x_i, x_i) without jitter (a test diagonal).
	DiagTo(dst []float64, x *mat.Dense)
	// GradTo sets dst (n×n) to ∂K/∂log θ_j of the training covariance.
	GradTo(dst, x *mat.Dense, j int)
	// GradTraceTo sets dst[j] = Σ_ik W_ik ∂K_ik/∂log θ_j for a symmetric
	// n×n matrix w, K the training covariance of x. It is the contraction
	// that the gradient of log Z_EP needs, without forming each ∂K.
	GradTraceTo(dst []float64, w, x *mat.Dense)
	// CrossGradTraceTo sets dst[j] = Σ_ik W_ik ∂K_ik/∂log θ_j for an
	// n1×n2 matrix w, K the noise-free cross-covariance K(x1, x2) of
	// CrossTo (the jitter's entry is 0). With DiagGradTraceTo it is what
	// the gradient of a sparse (FITC) model's evidence needs.
	CrossGradTraceTo(dst []float64, w, x1, x2 *mat.Dense)
	// DiagGradTraceTo sets dst[j] = Σ_i w_i ∂(k(x_i, x_i) + jitter)/∂log θ_j:
	// the contraction for the training diagonal (TrainTo's, jitter
	// included).
	DiagGradTraceTo(dst, w []float64, x *mat.Dense)
}

// New returns the kernel called name ("se", "se+lin", "se+bias", "seard",
// "seard+bias" or "poly") with hyperparameters theta in the paper's order:
// se [t1,t2,t3], se+lin and se+bias [t1,t2,t3,t4], poly [t1,t3], seard
// [t1,t2_1..t2_d,t3] and seard+bias [t1,t2_1..t2_d,t3,t4]. degree and gamma
// are used by poly only (gamma 0 means 1/d). The ARD kernels take d from
// len(theta), so they need theta (NewSEARD builds one for a given d). It
// returns an error for unknown names, a wrong number of parameters, or
// non-positive or non-finite values.
func New(name string, theta []float64, degree int, gamma float64) (Kernel, error) {
	var k Kernel
	switch lname := strings.ToLower(name); lname {
	case "seard", "ard", "seard+bias", "ard+bias":
		bias := strings.HasSuffix(lname, "+bias")
		nb := 0
		if bias {
			nb = 1
		}
		if len(theta) < 3+nb {
			return nil, fmt.Errorf("kernel: %s takes d+%d hyperparameters [t1, t2_1..t2_d, t3%s] (d >= 1), got %d", name, 2+nb, map[bool]string{true: ", t4"}[bias], len(theta))
		}
		a := NewSEARD(len(theta)-2-nb, 1, 1, 1e-6)
		if bias {
			k = SEARDBias{SEARD: a, Bias: 1}
		} else {
			k = a
		}
	case "se", "rbf":
		k = SE{Var: 1, Len2: 1, Jitter: 1e-6}
	case "se+lin", "selin":
		k = SELin{SE: SE{Var: 1, Len2: 1, Jitter: 1e-6}, Lin: 1}
	case "se+bias", "sebias":
		k = SEBias{SE: SE{Var: 1, Len2: 1, Jitter: 1e-6}, Bias: 1}
	case "poly":
		if degree < 1 {
			return nil, fmt.Errorf("kernel: poly degree must be a positive integer, got %d", degree)
		}
		if gamma < 0 || math.IsNaN(gamma) || math.IsInf(gamma, 0) {
			return nil, fmt.Errorf("kernel: poly gamma must be >= 0 (0 means 1/d), got %v", gamma)
		}
		k = Poly{Var: 1, Jitter: 1e-6, Degree: degree, Gamma: gamma}
	default:
		return nil, fmt.Errorf("kernel: unknown kernel %q (want se, se+lin, se+bias, seard, seard+bias or poly)", name)
	}
	if theta == nil {
		return k, nil
	}
	if len(theta) != len(k.Params()) {
		return nil, fmt.Errorf("kernel: %s takes %d hyperparameters %v, got %d", k.Name(), len(k.Params()), k.ParamNames(), len(theta))
	}
	for i, t := range theta {
		if !(t > 0) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("kernel: %s hyperparameter %s must be positive and finite, got %v", k.Name(), k.ParamNames()[i], t)
		}
	}
	return k.WithParams(theta), nil
}

func checkParams(k Kernel, theta []float64) {
	if len(theta) != len(k.ParamNames()) {
		panic(fmt.Sprintf("kernel: %s takes %d hyperparameters, got %d", k.Name(), len(k.ParamNames()), len(theta)))
	}
}

func checkSquare(dst, x *mat.Dense) {
	n, _ := x.Dims()
	r, c := dst.Dims()
	if r != n || c != n {
		panic("kernel: destination must be n×n")
	}
}

func checkCross(dst, x1, x2 *mat.Dense) {
	n1, d1 := x1.Dims()
	n2, d2 := x2.Dims()
	if d1 != d2 {
		panic("kernel: input dimension mismatch")
	}
	r, c := dst.Dims()
	if r != n1 || c != n2 {
		panic("kernel: destination must be n1×n2")
	}
}

func addDiag(dst *mat.Dense, v float64) {
	raw := dst.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		raw.Data[i*raw.Stride+i] += v
	}
}

func setDiag(dst *mat.Dense, v float64) {
	dst.Zero()
	addDiag(dst, v)
}

// traceDiag returns Σ_i W_ii.
func traceDiag(w *mat.Dense) float64 {
	raw := w.RawMatrix()
	var s float64
	for i := 0; i < raw.Rows; i++ {
		s += raw.Data[i*raw.Stride+i]
	}
	return s
}

// dotElem returns Σ_ik A_ik B_ik.
func dotElem(a, b *mat.Dense) float64 {
	ra, rb := a.RawMatrix(), b.RawMatrix()
	var s float64
	for i := 0; i < ra.Rows; i++ {
		x := ra.Data[i*ra.Stride : i*ra.Stride+ra.Cols]
		y := rb.Data[i*rb.Stride : i*rb.Stride+rb.Cols]
		for k, v := range x {
			s += v * y[k]
		}
	}
	return s
}

func rowNorms(dst []float64, x *mat.Dense) {
	raw := x.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		r := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		var s float64
		for _, v := range r {
			s += v * v
		}
		dst[i] = s
	}
}
