package kernel

import "gonum.org/v1/gonum/mat"

// SEBias is the SE covariance plus a constant Bias, with θ = [t1, t2, t3,
// t4], t4 = Bias. The constant is the prior variance of an offset shared
// by all latents, the GP counterpart of an SVM's bias b: without it the
// latent mean falls back to zero (probability 1/2) away from the active
// points, which on an imbalanced task such as IJCNN (10% positives) is
// worse than always predicting the majority class.
type SEBias struct {
	SE
	Bias float64 // t4, variance of the constant offset
}

func (SEBias) Name() string         { return "se+bias" }
func (k SEBias) Params() []float64  { return []float64{k.Var, k.Len2, k.Jitter, k.Bias} }
func (SEBias) ParamNames() []string { return []string{"t1", "t2", "t3", "t4"} }
func (k SEBias) WithParams(theta []float64) Kernel {
	checkParams(k, theta)
	return SEBias{SE: SE{Var: theta[0], Len2: theta[1], Jitter: theta[2]}, Bias: theta[3]}
}

func (k SEBias) CrossTo(dst, x1, x2 *mat.Dense) {
	k.SE.CrossTo(dst, x1, x2)
	addConst(dst, k.Bias)
}

func (k SEBias) TrainTo(dst, x *mat.Dense) {
	k.SE.TrainTo(dst, x)
	addConst(dst, k.Bias)
}

func (k SEBias) DiagTo(dst []float64, x *mat.Dense) {
	n, _ := x.Dims()
	for i := range dst[:n] {
		dst[i] = k.Var + k.Bias
	}
}

// GradTo: the SE derivatives, and ∂K/∂log t4 = t4 (every entry).
func (k SEBias) GradTo(dst, x *mat.Dense, j int) {
	if j == 3 {
		checkSquare(dst, x)
		dst.Zero()
		addConst(dst, k.Bias)
		return
	}
	k.SE.GradTo(dst, x, j)
}

// GradTraceTo: the SE contractions, and t4 Σ_ik W_ik for the bias.
func (k SEBias) GradTraceTo(dst []float64, w, x *mat.Dense) {
	checkSquare(w, x)
	k.CrossGradTraceTo(dst, w, x, x)
	addJitterTrace(dst, 2, k.Jitter, w)
}

// addConst adds c to every entry of dst.
func addConst(dst *mat.Dense, c float64) {
	r, cols := dst.Dims()
	for i := 0; i < r; i++ {
		row := dst.RawRowView(i)[:cols]
		for j := range row {
			row[j] += c
		}
	}
}
