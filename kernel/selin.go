package kernel

import (
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// SELin is the SE covariance plus a linear term Lin·x·x', with
// θ = [t1, t2, t3, t4] (the paper's IVM setting).
type SELin struct {
	SE
	Lin float64 // t4, weight of the linear term
}

func (SELin) Name() string         { return "se+lin" }
func (k SELin) Params() []float64  { return []float64{k.Var, k.Len2, k.Jitter, k.Lin} }
func (SELin) ParamNames() []string { return []string{"t1", "t2", "t3", "t4"} }
func (k SELin) WithParams(theta []float64) Kernel {
	checkParams(k, theta)
	return SELin{SE: SE{Var: theta[0], Len2: theta[1], Jitter: theta[2]}, Lin: theta[3]}
}

func (k SELin) CrossTo(dst, x1, x2 *mat.Dense) {
	k.SE.CrossTo(dst, x1, x2)
	addLinear(dst, x1, x2, k.Lin)
}

func (k SELin) TrainTo(dst, x *mat.Dense) {
	k.SE.TrainTo(dst, x)
	addLinear(dst, x, x, k.Lin)
}

func (k SELin) DiagTo(dst []float64, x *mat.Dense) {
	n, _ := x.Dims()
	rowNorms(dst[:n], x)
	for i := range dst[:n] {
		dst[i] = k.Var + k.Lin*dst[i]
	}
}

// GradTo: the SE derivatives, and ∂K/∂log t4 = t4 X Xᵀ.
func (k SELin) GradTo(dst, x *mat.Dense, j int) {
	if j == 3 {
		checkSquare(dst, x)
		dst.Zero()
		addLinear(dst, x, x, k.Lin)
		return
	}
	k.SE.GradTo(dst, x, j)
}

func (k SELin) GradTraceTo(dst []float64, w, x *mat.Dense) {
	checkSquare(w, x)
	k.CrossGradTraceTo(dst, w, x, x)
	addJitterTrace(dst, 2, k.Jitter, w)
}

// addLinear adds c·x1 x2ᵀ to dst.
func addLinear(dst, x1, x2 *mat.Dense, c float64) {
	n1, _ := x1.Dims()
	n2, _ := x2.Dims()
	if n1 == 0 || n2 == 0 {
		return
	}
	tmp := mat.NewDense(n1, n2, nil)
	la.DotTo(tmp.RawMatrix(), x1.RawMatrix(), x2.RawMatrix())
	dst.Add(dst, scaled(tmp, c))
}

func scaled(m *mat.Dense, c float64) *mat.Dense {
	m.Scale(c, m)
	return m
}
