package ep

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
)

// CavityTo sets mean[n], variance[n] to the cavity marginal of site n:
// v_c = 1/(1/Var_n - τ̃_n), m_c = v_c (Mean_n/Var_n - ν̃_n). Either may be
// nil.
func (p *Posterior) CavityTo(mean, variance []float64) {
	for i := 0; i < p.n; i++ {
		tc, nc := p.cavity(i)
		if mean != nil {
			mean[i] = nc / tc
		}
		if variance != nil {
			variance[i] = 1 / tc
		}
	}
}

// minCavityPrec bounds the cavity precision from below, relative to the
// marginal precision 1/Var: see cavity.
const minCavityPrec = 1e-12

// cavity returns the natural parameters τ_c = 1/v - τ̃, ν_c = μ/v - ν̃ of
// site i's cavity. In exact arithmetic τ_c > 0 (it is the precision that
// the prior and the other sites give f_i), but with a site precision much
// larger than the prior's, 1/v - τ̃ can round to zero or below. τ_c is then
// taken as minCavityPrec/v: a cavity that carries no information, which
// keeps every quantity derived from it finite (a NaN must not reach the
// deletion rule or a sort). The marginal variance v = K_ii − |V_i|² can
// itself round to zero or below when τ̃_i dwarfs the prior; no cavity can
// be recovered from it, and the cavity is taken as uninformative at the
// marginal mean, with τ_c = minCavityPrec·max(τ̃_i, 1) (1/v ≈ τ̃_i there).
func (p *Posterior) cavity(i int) (tc, nc float64) {
	v := p.Var[i]
	if !(v > 0) || math.IsInf(v, 0) {
		tc = minCavityPrec * math.Max(math.Abs(p.Sites.Tau[i]), 1)
		return tc, tc * p.Mean[i]
	}
	tc = 1/v - p.Sites.Tau[i]
	nc = p.Mean[i]/v - p.Sites.Nu[i]
	if !(tc > minCavityPrec/v) || math.IsInf(tc, 0) {
		tc = minCavityPrec / v
	}
	return tc, nc
}

// CavityProbTo sets dst[n] = Φ(y_n m_c/√(1+v_c)), the cavity (leave-one-out)
// predictive probability of the observed label of training point n (paper
// eq. 3).
func (p *Posterior) CavityProbTo(dst []float64) {
	if len(dst) < p.n {
		panic("ep: CavityProbTo: dst too short")
	}
	for i := 0; i < p.n; i++ {
		tc, nc := p.cavity(i)
		mc, vc := nc/tc, 1/tc
		dst[i] = Phi(p.Y[i] * mc / math.Sqrt(1+vc))
	}
}

// PredictTo computes, for the rows x_i of xs, the predictive latent mean
// m* = k*ᵀ b, variance v* = k** - |L⁻¹ S^½ k*|² (k*, k** without jitter) and
// probability q(y=+1|x_i) = Φ(m*/√(1+v*)) (paper eq. 4), through one Gram
// block K(xs, X) and one triangular solve with len(xs) right-hand sides.
// Any of mean, variance, prob may be nil. It is safe for concurrent use on
// disjoint outputs and allocates O(len(xs)·n) temporary memory.
func (p *Posterior) PredictTo(mean, variance, prob []float64, xs *mat.Dense) {
	p.predictTo(mean, variance, prob, xs, false)
}

// predictTo is PredictTo; serial computes K* with kernel.SerialCrossTo and
// the rest with la's serial kernels (PredictSerialTo).
func (p *Posterior) predictTo(mean, variance, prob []float64, xs *mat.Dense, serial bool) {
	if p.Kernel == nil && serial {
		panic("ep: PredictSerialTo on a posterior without a kernel (use PredictCrossSerialTo)")
	}
	if p.Kernel == nil {
		panic("ep: PredictTo on a posterior without a kernel (use PredictCrossTo)")
	}
	m, _ := xs.Dims()
	if m == 0 {
		return
	}
	kstar := &mat.Dense{}
	if p.n > 0 {
		kstar = mat.NewDense(m, p.n, nil)
		if serial {
			kernel.SerialCrossTo(p.Kernel, kstar, xs, p.X)
		} else {
			p.Kernel.CrossTo(kstar, xs, p.X)
		}
	}
	var kss []float64
	if variance != nil || prob != nil {
		kss = make([]float64, m)
		p.Kernel.DiagTo(kss, xs)
	}
	p.predict(mean, variance, prob, kstar, kss, m, serial)
}

// PredictCrossTo does the same as PredictTo from a precomputed
// cross-covariance kstar (m×n, rows = test points) and test diagonal kss
// (no jitter; needed only for variance or prob). kstar is not modified; a
// copy (O(m·n)) is made when variance or prob is requested.
func (p *Posterior) PredictCrossTo(mean, variance, prob []float64, kstar *mat.Dense, kss []float64) {
	p.predictCross(mean, variance, prob, kstar, kss, false)
}

// predictCross is PredictCrossTo; serial selects la's serial kernels.
func (p *Posterior) predictCross(mean, variance, prob []float64, kstar *mat.Dense, kss []float64, serial bool) {
	m, c := kstar.Dims()
	if c != p.n {
		panic(fmt.Sprintf("ep: PredictCrossTo: kstar has %d columns, want %d", c, p.n))
	}
	if m > 0 && p.n > 0 && (variance != nil || prob != nil) {
		// predict overwrites its K*: work on a pooled copy.
		buf := la.GetScratch(m * c)
		defer la.PutScratch(buf)
		cp := mat.NewDense(m, c, *buf)
		cp.Copy(kstar)
		kstar = cp
	}
	p.predict(mean, variance, prob, kstar, kss, m, serial)
}

// predict is the prediction from K* (overwritten when the variance is
// needed); serial computes it on the calling goroutine alone with la's
// serial kernels instead of BLAS.
func (p *Posterior) predict(mean, variance, prob []float64, kstar *mat.Dense, kss []float64, m int, serial bool) {
	for _, d := range [][]float64{mean, variance, prob} {
		if d != nil && len(d) < m {
			panic("ep: prediction destination too short")
		}
	}
	if m == 0 {
		return
	}
	needVar := variance != nil || prob != nil
	if needVar && len(kss) < m {
		panic("ep: PredictCrossTo: kss too short")
	}
	mu := mean
	if mu == nil {
		mu = make([]float64, m)
	}
	if p.n == 0 {
		clear(mu[:m])
	} else if ks := kstar.RawMatrix(); serial {
		la.SerialMulVecTo(mu[:m], ks, p.Alpha)
	} else {
		blas64.Gemv(blas.NoTrans, 1, ks, vec(p.Alpha), 0, blas64.Vector{N: m, Inc: 1, Data: mu})
	}
	if !needVar {
		return
	}
	vr := variance
	if vr == nil {
		vr = make([]float64, m)
	}
	copy(vr, kss[:m])
	if p.n > 0 {
		// T = K* S^½, then T ← T L⁻ᵀ: row i becomes (L⁻¹ S^½ k*_i)ᵀ.
		ks := kstar.RawMatrix()
		for i := 0; i < m; i++ {
			r := ks.Data[i*ks.Stride : i*ks.Stride+p.n]
			for j, s := range p.sw {
				r[j] *= s
			}
		}
		if serial {
			la.SerialSolveLowerTransRightTo(ks, p.general(p.l), ks)
		} else {
			la.SolveLowerTransRightTo(ks, p.general(p.l), ks)
		}
		for i := 0; i < m; i++ {
			r := ks.Data[i*ks.Stride : i*ks.Stride+p.n]
			if serial {
				vr[i] -= la.SerialDot(r, r)
			} else {
				vr[i] -= blas64.Dot(vec(r), vec(r))
			}
		}
	}
	if prob != nil {
		for i := 0; i < m; i++ {
			prob[i] = Phi(mu[i] / math.Sqrt(1+vr[i]))
		}
	}
}

// GradientTo sets dst[j] = ∂ log Z_EP/∂ log θ_j (paper order) and returns
// dst (allocated if nil):
//
//	∂ log Z_EP/∂θ_j = ½ tr((b bᵀ - R) ∂K/∂θ_j),  R = S^½ B⁻¹ S^½
//
// (Rasmussen & Williams Alg. 5.2 / GPML infEP), contracted by
// kernel.GradTraceTo. It costs 2n³/3 (B⁻¹ by la.CholInverseTo) plus the kernel's
// contraction; on the posterior of one of Optimize's evaluations, whose EP
// run kept its last L⁻¹, the first call costs n³/3 (la.InverseFromInvTo).
// It panics for a posterior without a kernel.
func (p *Posterior) GradientTo(dst []float64) []float64 {
	if p.Kernel == nil {
		panic("ep: GradientTo on a posterior without a kernel")
	}
	np := len(p.Kernel.Params())
	if dst == nil {
		dst = make([]float64, np)
	}
	n := p.n
	if n == 0 {
		clear(dst[:np])
		return dst
	}
	// W = b bᵀ - S^½ B⁻¹ S^½, B⁻¹ = L⁻ᵀ L⁻¹ (both triangles).
	var W []float64
	if inv := p.inv; inv != nil {
		// L⁻¹ from the run's last refresh (keepInv): the same B⁻¹, bit
		// for bit, at half the cost.
		p.inv = nil
		defer la.PutScratch(inv)
		W = (*inv)[:n*n]
		la.InverseFromInvTo(p.general(W), p.general(W))
	} else {
		buf := la.GetScratch(n * n)
		defer la.PutScratch(buf)
		W = *buf
		la.CholInverseTo(p.general(W), p.general(p.l))
	}
	for i := 0; i < n; i++ {
		wi := W[i*n : (i+1)*n]
		si, ai := p.sw[i], p.Alpha[i]
		for j := range wi {
			wi[j] = ai*p.Alpha[j] - si*p.sw[j]*wi[j]
		}
	}
	p.Kernel.GradTraceTo(dst[:np], mat.NewDense(n, n, W), p.X)
	for j := range dst[:np] {
		dst[j] *= 0.5
	}
	return dst
}
