package ep

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/passgp-fast/passgp-fast/la"
)

func (p *Posterior) general(d []float64) blas64.General {
	return blas64.General{Rows: p.n, Cols: p.n, Stride: p.n, Data: d}
}

func (p *Posterior) lower() blas64.Triangular {
	return blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: p.n, Stride: p.n, Data: p.l}
}

func vec(x []float64) blas64.Vector { return blas64.Vector{N: len(x), Inc: 1, Data: x} }

// negVarTol is the most, relative to the prior variance K_ii, by which a
// posterior variance may round below zero before refresh takes K for
// indefinite (B then is not the matrix of a valid posterior).
const negVarTol = 1e-6

// refreshPanel is the number of columns of V = L⁻¹ S^½ K that refresh
// solves between two checks of the run's context: wide enough for the
// DGEMM path of la.SolveLowerTo (512 or more right-hand sides).
const refreshPanel = 1024

// refresh recomputes the posterior from the sites (GPML infEP's
// epComputeParams): L = chol(B), B = I + S^½ K S^½; diag Σ (varByInverse,
// or varBySolve's V = L⁻¹ S^½ K and diag K - colsums(V∘V));
// b = ν̃ - S^½ B⁻¹ S^½ (K ν̃ + m); μ = K b + m; and log Z_EP. If sigma is
// not nil its lower triangle is set to Σ = K - VᵀV (the sequential schedule
// needs all of Σ; V then comes from varBySolve). It returns false if B is
// not positive definite or a posterior variance is negative beyond rounding
// (K indefinite).
//
// Cost: n³/3 (Cholesky) + n³/3 (L⁻¹, varByInverse) or n³ (triangular
// solve, varBySolve) [+ n³ for Σ], all BLAS-3.
func (p *Posterior) refresh(w *work, sigma []float64) bool {
	n := p.n
	tau, nu := p.Sites.Tau, p.Sites.Nu
	sw, K := p.sw, p.k
	w.inverse = false
	zero := true
	for i, t := range tau {
		sw[i] = math.Sqrt(t)
		zero = zero && t == 0 && nu[i] == 0
	}
	if zero {
		p.refreshZero(sigma)
		return true
	}
	// diag Σ from W = L⁻¹ where few sites are weak (varByInverse); W then
	// comes with the factor.
	inverse := sigma == nil && p.fewWeak(w)
	if !p.factorB(w, inverse) {
		return false
	}
	w.inverse = inverse && p.varByInverse(w)
	if !w.inverse {
		if w.cancelled() != nil || !p.varBySolve(w) {
			return false
		}
	}
	for j, vj := range p.Var {
		// diag Σ >= 0 for a positive semi-definite K; rounding takes it
		// a little below zero when a site precision dwarfs the prior
		// (cavity then gives an uninformative cavity), but not by a
		// fraction of the prior variance.
		if vj < -negVarTol*K[j*n+j] {
			return false
		}
	}

	p.refreshMean(w)

	if sigma != nil && n > 0 {
		// varBySolve left V = L⁻¹ S^½ K in w.v.
		copy(sigma, K)
		blas64.Syrk(blas.Trans, -1, p.general(w.v[:n*n]), 1,
			blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: sigma})
	}
	p.LogZ = p.logZ(w)
	return true
}

// factorB sets p.l to the lower Cholesky factor L of B = I + S^½ K S^½
// (lower triangle; S^½ = p.sw) and, if inverse is set, w.v to W = L⁻¹
// (la.CholeskyInvStop). It returns false if B is not positive definite (a
// diagonal of L not positive and finite) or the run's context is done.
func (p *Posterior) factorB(w *work, inverse bool) bool {
	n := p.n
	sw, K, L := p.sw, p.k, p.l
	for i := 0; i < n; i++ {
		li := L[i*n : i*n+i+1]
		ki := K[i*n : i*n+i+1]
		s := sw[i]
		for j, kv := range ki {
			li[j] = s * sw[j] * kv
		}
		li[i]++
	}
	if n > 0 {
		// The factorisation stops between its level-3 steps once the
		// run's context is done.
		stop := func() bool { return w.cancelled() != nil }
		ok := false
		if inverse {
			ok, _ = la.CholeskyInvStop(p.general(L), p.general(w.v[:n*n]), stop)
		} else {
			ok, _ = la.CholeskyStop(p.general(L), stop)
		}
		if !ok {
			return false
		}
	}
	if w.cancelled() != nil {
		return false
	}
	for i := 0; i < n; i++ {
		if !(L[i*n+i] > 0) || math.IsInf(L[i*n+i], 0) {
			return false
		}
	}
	return true
}

// refreshMean sets p.Alpha to b = ν̃ - S^½ L⁻ᵀ L⁻¹ S^½ (K ν̃ + m) and
// p.Mean to μ = K b + m (GPML infEP's epComputeParams), from the factor
// L of B; it uses w.a.
func (p *Posterior) refreshMean(w *work) {
	nu, sw := p.Sites.Nu, p.sw
	t := w.a
	p.symv(t, nu)
	if p.mean0 != nil {
		for i := range t {
			t[i] += p.mean0[i]
		}
	}
	for i := range t {
		t[i] *= sw[i]
	}
	p.cholSolve(t)
	for i := range t {
		p.Alpha[i] = nu[i] - sw[i]*t[i]
	}
	p.symv(p.Mean, p.Alpha)
	if p.mean0 != nil {
		for i := range p.Mean {
			p.Mean[i] += p.mean0[i]
		}
	}
}

// refreshZero is refresh for all sites zero: the posterior is the prior,
// L = I, b = 0, and log Z_EP = Σ log Φ(y_i m_i/√(1+K_ii)) (GPML infEP's
// nlZ0). It costs O(n²) (Σ = K for the sequential schedule).
func (p *Posterior) refreshZero(sigma []float64) {
	n := p.n
	clear(p.l)
	clear(p.Alpha)
	var lz float64
	for i := 0; i < n; i++ {
		p.l[i*n+i] = 1
		kii := p.k[i*n+i]
		p.Var[i] = kii
		m := 0.0
		if p.mean0 != nil {
			m = p.mean0[i]
		}
		p.Mean[i] = m
		lz += p.logLik(p.Y[i] * m / math.Sqrt(1+kii))
	}
	if sigma != nil {
		copy(sigma, p.k)
	}
	p.LogZ = lz
}

// symv sets dst = K x.
func (p *Posterior) symv(dst, x []float64) {
	if p.n == 0 {
		return
	}
	blas64.Gemv(blas.NoTrans, 1, p.general(p.k), vec(x), 0, vec(dst))
}

// cholSolve overwrites x with B⁻¹ x = L⁻ᵀ L⁻¹ x.
func (p *Posterior) cholSolve(x []float64) {
	if p.n == 0 {
		return
	}
	blas64.Trsv(blas.NoTrans, p.lower(), vec(x))
	blas64.Trsv(blas.Trans, p.lower(), vec(x))
}

// logZ returns log Z_EP (Rasmussen & Williams eq. 3.65) in GPML infEP's
// numerically stable arrangement:
//
//	-log Z = Σ log L_ii - Σ log Ẑ_i - pᵀΣp/2 + Σ v_i p_i²/2
//	         - Σ q_i (τ̃_i/τ_i q_i - 2 p_i) v_i/2 - Σ log(1 + τ̃_i/τ_i)/2
//
// with cavity parameters τ_i = 1/v_i - τ̃_i, ν_i = μ_i/v_i - ν̃_i,
// p = ν̃ - m∘τ̃, q = ν - m∘τ, v = diag Σ, log Ẑ_i = log Φ(y_i (ν_i/τ_i)/√(1+1/τ_i)),
// and pᵀΣp = pᵀKp - |Vp|² (V = L⁻¹ S^½ K).
func (p *Posterior) logZ(w *work) float64 {
	n := p.n
	tau, nu, v := p.Sites.Tau, p.Sites.Nu, p.Var
	pv, kp, vp := w.b, w.c, w.a
	for i := range pv {
		pv[i] = nu[i]
		if p.mean0 != nil {
			pv[i] -= p.mean0[i] * tau[i]
		}
	}
	var pSp float64
	if n > 0 {
		p.symv(kp, pv)
		for i, k := range kp { // V p = L⁻¹ S^½ (K p)
			vp[i] = p.sw[i] * k
		}
		blas64.Trsv(blas.NoTrans, p.lower(), vec(vp))
		pSp = blas64.Dot(vec(pv), vec(kp)) - blas64.Dot(vec(vp), vec(vp))
	}
	var s float64
	for i := 0; i < n; i++ {
		s += math.Log(p.l[i*n+i])
		tc, nc := p.cavity(i)
		mc, vc := nc/tc, 1/tc
		s -= p.logLik(p.Y[i] * mc / math.Sqrt(1+vc))
		q := nc
		if p.mean0 != nil {
			q -= p.mean0[i] * tc
		}
		s += v[i] * pv[i] * pv[i] / 2
		s -= q * (tau[i]/tc*q - 2*pv[i]) * v[i] / 2
		s -= math.Log1p(tau[i]/tc) / 2
	}
	s -= pSp / 2
	return -s
}
