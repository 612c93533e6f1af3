package ivm

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// State is the IVM posterior over all N training latents after the
// inclusions Sel: Σ = K − RᵀR with R the |Sel|×N matrix of scaled
// posterior covariance columns, and the marginals (Mu, S2). Storage
// O(N·M), as IVM's definition implies.
type State struct {
	Mu, S2 []float64
	// Sel holds the selected rows in the order of inclusion, Tau and Nu
	// their ADF sites (τ̃, ν̃), In marks them.
	Sel     []int
	Tau, Nu []float64
	In      []bool
	r       []float64 // M×N, row-major
}

// Select greedily selects m points of x (labels y, ±1) by the differential
// entropy score with ADF site updates, at fixed kernel k.
//
// For a candidate j with posterior marginal N(mu_j, s2_j) (its cavity,
// since its site is not included yet), probit moment matching gives
// z = y mu/√(1+s2), r = N(z)/Φ(z) and ν_j = r(z+r)/(1+s2), the new variance
// s2(1 − ν_j s2) and the entropy reduction ΔH_j = −½ log(1 − ν_j s2_j).
// The point with the largest ΔH is included; its site is
// τ̃ = 1/ŝ2 − 1/s2, ν̃ = m̂/ŝ2 − mu/s2, and the posterior is updated by the
// rank-one step Σ ← Σ − ν s sᵀ, mu ← mu + s·y r/√(1+s2), s = Σ[:, j].
// Fewer than m points are selected when every remaining latent is
// determined (variance zero).
//
// ctx is checked before every inclusion (O(N·M) work); when it ends,
// Select returns nil and its error.
func Select(ctx context.Context, k kernel.Kernel, x *mat.Dense, y []float64, m int) (*State, error) {
	n, _ := x.Dims()
	st := &State{Mu: make([]float64, n), S2: make([]float64, n),
		r: make([]float64, m*n), In: make([]bool, n)}
	k.DiagTo(st.S2, x)
	jit := k.DiagJitter()
	for i := range st.S2 {
		st.S2[i] += jit
	}
	kc := newColumn(k, x)
	s := make([]float64, n)
	rj := make([]float64, m)
	for step := 0; step < m; step++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		j := st.best(y)
		if j < 0 {
			break // every remaining latent is determined
		}
		// s = K[:, j] − Rᵀ R[:, j]: one kernel column (one pass over X),
		// then O(step·N) DGEMV.
		kc.columnTo(s, j)
		s[j] += jit
		if step > 0 {
			rk := blas64.General{Rows: step, Cols: n, Stride: n, Data: st.r[:step*n]}
			for i := 0; i < step; i++ {
				rj[i] = st.r[i*n+j]
			}
			blas64.Gemv(blas.Trans, -1, rk, blas64.Vector{N: step, Inc: 1, Data: rj[:step]}, 1, blas64.Vector{N: n, Inc: 1, Data: s})
		}
		st.include(j, y[j], s, st.r[step*n:(step+1)*n])
	}
	return st, nil
}

// best returns the unselected point of largest entropy reduction, or −1.
func (st *State) best(y []float64) int {
	best, bestScore := -1, math.Inf(-1)
	for j := range st.Mu {
		// A latent whose variance has reached zero (rounding) has no
		// information left to give, and its site would divide by zero.
		if st.In[j] || !(st.S2[j] > 0) {
			continue
		}
		_, nuj := moments(y[j], st.Mu[j], st.S2[j])
		// ΔH is monotone in ν s2; compare that (no log needed).
		if sc := nuj * st.S2[j]; sc > bestScore {
			best, bestScore = j, sc
		}
	}
	return best
}

// include adds point j (label yj, posterior covariance column s) with its
// ADF site and updates the marginals; row receives R's new row.
func (st *State) include(j int, yj float64, s, row []float64) {
	mu, s2 := st.Mu[j], st.S2[j]
	g, nuj := moments(yj, mu, s2)
	// Site of j from the moments (SPEC.md section 2, cavity = marginal).
	mhat := mu + s2*g
	// ν s2 < 1 for the probit likelihood; rounding must not make the
	// matched variance zero (an infinite site precision).
	vhat := max(s2*(1-nuj*s2), s2*minVarRatio)
	st.Tau = append(st.Tau, 1/vhat-1/s2)
	st.Nu = append(st.Nu, mhat/vhat-mu/s2)
	st.Sel = append(st.Sel, j)
	st.In[j] = true
	sn := math.Sqrt(nuj)
	for i, v := range s {
		row[i] = sn * v
		st.S2[i] = max(st.S2[i]-nuj*v*v, 0)
		st.Mu[i] += v * g
	}
}

// minVarRatio bounds the matched variance of a site from below, relative
// to its cavity variance, so that the site precision stays finite.
const minVarRatio = 1e-12

// moments returns g = y r/√(1+s2) (so that the matched mean is
// mu + s2·g) and ν = r(z+r)/(1+s2), for z = y mu/√(1+s2), r = N(z)/Φ(z).
func moments(y, mu, s2 float64) (g, nu float64) {
	sq := math.Sqrt(1 + s2)
	z := y * mu / sq
	r := ep.InvMills(z)
	return y * r / sq, r * (z + r) / (1 + s2)
}
