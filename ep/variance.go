package ep

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/passgp-fast/passgp-fast/la"
)

// weakSite is the value of τ̃_i K_ii below which varByInverse takes site i's
// posterior variance from a column of V instead of from diag B⁻¹: there
// (1 - (B⁻¹)_ii)/τ̃_i loses about log10(1/(τ̃_i K_ii)) more digits than
// K_ii - |V_i|², which varBySolve uses for all sites.
const weakSite = 0.1

// isWeak reports whether a site of precision tau on a point of prior
// variance kii is weak (weakSite; NaN counts as weak).
func isWeak(tau, kii float64) bool { return !(tau*kii >= weakSite) }

// weakPanel is the most columns of V that varByInverse computes at once
// for weak sites.
const weakPanel = 512

// varBySolve sets p.Var = diag Σ = diag K - colsums(V∘V) with V = L⁻¹ S^½ K
// (GPML infEP's epComputeParams), leaving V in w.v: a triangular solve with
// n right-hand sides, n³ FLOPs. It returns false if the run's context was
// done before it finished.
func (p *Posterior) varBySolve(w *work) bool {
	n := p.n
	sw, K, L := p.sw, p.k, p.l
	// V = L⁻¹ (S^½ K), rows scaled by sw.
	V := w.v[:n*n]
	for i := 0; i < n; i++ {
		s := sw[i]
		vi, ki := V[i*n:(i+1)*n], K[i*n:(i+1)*n]
		for j, kv := range ki {
			vi[j] = s * kv
		}
	}
	// The solve is column panels of V, independent right-hand sides, so
	// that a cancelled run stops within one panel (O(n²·refreshPanel)).
	for c := 0; c < n; c += refreshPanel {
		if w.cancelled() != nil {
			return false
		}
		panel := blas64.General{Rows: n, Cols: min(refreshPanel, n-c), Stride: n, Data: V[c:]}
		la.SolveLowerTo(panel, p.general(L), panel)
	}
	v := p.Var
	for j := 0; j < n; j++ {
		v[j] = K[j*n+j]
	}
	for i := 0; i < n; i++ {
		vi := V[i*n : (i+1)*n]
		for j, x := range vi {
			v[j] -= x * x
		}
	}
	return true
}

// fewWeak lists in w.weak the sites with τ̃_i K_ii < weakSite (zero ones
// included) and reports whether they are at most half of them: then
// refresh takes diag Σ from W = L⁻¹ (varByInverse), which costs n³/3 FLOPs
// against varBySolve's n³.
func (p *Posterior) fewWeak(w *work) bool {
	n := p.n
	weak := w.weak[:0]
	for i, t := range p.Sites.Tau {
		if isWeak(t, p.k[i*n+i]) {
			weak = append(weak, i)
		}
	}
	w.weak = weak
	return 2*len(weak) <= n
}

// varByInverse sets p.Var = diag Σ from W = L⁻¹ in w.v (factorB). With
// B = I + S^½ K S^½, S^½ Σ S^½ = S^½ K S^½ - S^½ K S^½ B⁻¹ S^½ K S^½ =
// (B - I) - (B - I) B⁻¹ (B - I) = I - B⁻¹, so
//
//	Σ_ii = (1 - (B⁻¹)_ii) / τ̃_i,  (B⁻¹)_ii = Σ_k W_ki²,
//
// for every site with τ̃_i > 0. The weak sites of w.weak (fewWeak) get
// K_ii - |W S^½ K_i|² from their column of K instead (one triangular
// multiplication, n² FLOPs per site). It returns false if the run's
// context was done; refresh then uses varBySolve.
func (p *Posterior) varByInverse(w *work) bool {
	n := p.n
	tau, sw, K := p.Sites.Tau, p.sw, p.k
	weak := w.weak
	W := p.general(w.v[:n*n])
	v := p.Var
	clear(v)
	for k := 0; k < n; k++ {
		for i, x := range W.Data[k*n : k*n+k+1] {
			v[i] += x * x
		}
	}
	for i, t := range tau {
		v[i] = (1 - v[i]) / t
	}
	// Weak sites: X = W S^½ K[:, weak], in panels of weakPanel columns
	// so that the scratch stays O(n·weakPanel); the context is asked once
	// here and then between panels, so that a cancelled run stops within
	// one panel (and a sweep with fewer weak sites than a panel asks it
	// the same number of times, whatever their number).
	tri := blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: n, Stride: n, Data: W.Data}
	if w.cancelled() != nil {
		return false
	}
	for c0 := 0; c0 < len(weak); c0 += weakPanel {
		if c0 > 0 && w.cancelled() != nil {
			return false
		}
		cols := weak[c0:min(c0+weakPanel, len(weak))]
		m := len(cols)
		w.x = grow(w.x, n*m)
		X := blas64.General{Rows: n, Cols: m, Stride: m, Data: w.x}
		for r := 0; r < n; r++ {
			s, kr, xr := sw[r], K[r*n:(r+1)*n], X.Data[r*m:(r+1)*m]
			for c, j := range cols {
				xr[c] = s * kr[j]
			}
		}
		blas64.Trmm(blas.Left, blas.NoTrans, 1, tri, X)
		for _, j := range cols {
			v[j] = K[j*n+j]
		}
		for r := 0; r < n; r++ {
			for c, x := range X.Data[r*m : (r+1)*m] {
				v[cols[c]] -= x * x
			}
		}
	}
	return true
}
