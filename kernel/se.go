package kernel

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// SE is the squared-exponential covariance
// k(x,x') = Var·exp(-|x-x'|²/(2·Len2)) + Jitter·δ(x,x')
// with θ = [Var, Len2, Jitter] = [t1, t2, t3] (paper eq. rbf).
type SE struct {
	Var    float64 // t1, signal variance
	Len2   float64 // t2, squared length scale
	Jitter float64 // t3, added to the training diagonal only
}

func (SE) Name() string          { return "se" }
func (k SE) Params() []float64   { return []float64{k.Var, k.Len2, k.Jitter} }
func (SE) ParamNames() []string  { return []string{"t1", "t2", "t3"} }
func (k SE) DiagJitter() float64 { return k.Jitter }

func (k SE) WithParams(theta []float64) Kernel {
	checkParams(k, theta)
	return SE{Var: theta[0], Len2: theta[1], Jitter: theta[2]}
}

func (k SE) CrossTo(dst, x1, x2 *mat.Dense) {
	checkCross(dst, x1, x2)
	la.GramSETo(dst.RawMatrix(), x1.RawMatrix(), x2.RawMatrix(), k.Var, 1/(2*k.Len2))
}

func (k SE) TrainTo(dst, x *mat.Dense) {
	checkSquare(dst, x)
	la.GramSETo(dst.RawMatrix(), x.RawMatrix(), x.RawMatrix(), k.Var, 1/(2*k.Len2))
	addDiag(dst, k.Jitter)
}

func (k SE) DiagTo(dst []float64, x *mat.Dense) {
	n, _ := x.Dims()
	for i := range dst[:n] {
		dst[i] = k.Var
	}
}

// GradTo: ∂K/∂log t1 = K_se, ∂K/∂log t2 = K_se ∘ D/(2 t2), ∂K/∂log t3 = t3 I.
func (k SE) GradTo(dst, x *mat.Dense, j int) {
	checkSquare(dst, x)
	switch j {
	case 0:
		k.CrossTo(dst, x, x)
	case 1:
		seLenGradTo(dst, x, k.Var, k.Len2)
	case 2:
		setDiag(dst, k.Jitter)
	default:
		panic("kernel: parameter index out of range")
	}
}

func (k SE) GradTraceTo(dst []float64, w, x *mat.Dense) {
	checkSquare(w, x)
	k.CrossGradTraceTo(dst, w, x, x)
	addJitterTrace(dst, 2, k.Jitter, w)
}

// seLenGradTo sets dst = Var·exp(-D/(2 len2)) ∘ D/(2 len2).
func seLenGradTo(dst, x *mat.Dense, v, len2 float64) {
	raw := dst.RawMatrix()
	la.SqDistTo(raw, x.RawMatrix(), x.RawMatrix())
	c := 1 / (2 * len2)
	for i := 0; i < raw.Rows; i++ {
		r := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j, d := range r {
			r[j] = v * math.Exp(-c*d) * c * d
		}
	}
}
