package ep

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// LeaveOutTo sets mean[k], variance[k] to the latent marginal at row k of
// xs under the posterior with the sites of the training points groups[k]
// removed (divided out): the predictive distribution of a model that
// never saw those labels. self[k] >= 0 says that row k is training point
// self[k] (its prior covariance then includes the kernel's jitter, as in
// the training covariance); -1, or a nil self, a new point. With
// groups[k] = {i} and self[k] = i it is site i's cavity (CavityTo); with
// an empty group, PredictTo's latent (predict computes it). A group
// member whose site has zero precision carries no information and is
// skipped.
//
// It is the held-out prediction when near copies of a point are training
// points too, such as the translated images of paper Section 6.3: the
// cavity of one site still sees its copies' sites.
//
// With S_G^½ = s, R = (B⁻¹)_GG = YᵀY for Y = L⁻¹E_G (E_G the columns of
// the identity at G), and a = L⁻¹S^½k_q (PredictTo's solve), the identity
// S^½ΣS^½ = I − B⁻¹ gives Σ_Gq = (Yᵀa)/s =: c/s, and dividing the
// Gaussian sites of G out of the joint posterior of (f_q, f_G) gives
//
//	m = μ_q + cᵀR⁻¹w,  v = Σ_qq + cᵀR⁻¹c,  w = s∘μ_G − ν̃_G/s,
//
// g×g systems for a group of g points. It costs PredictTo's solve with
// len(xs) right-hand sides and one with Σ|groups[k]|, and allocates that
// many rows of n floats. It returns an error if some R is not positive
// definite (the sites of the group dominate the posterior so much that
// B⁻¹ has lost them to rounding) or a variance is not positive; the
// entries of such rows are NaN, the others valid. It panics for a posterior without a
// kernel or on mismatched lengths.
func (p *Posterior) LeaveOutTo(mean, variance []float64, xs *mat.Dense, self []int, groups [][]int) error {
	if p.Kernel == nil {
		panic("ep: LeaveOutTo on a posterior without a kernel")
	}
	m, _ := xs.Dims()
	if len(mean) < m || len(variance) < m || len(groups) != m || (self != nil && len(self) != m) {
		panic("ep: LeaveOutTo: mismatched lengths")
	}
	if m == 0 {
		return nil
	}
	n := p.n
	members, rows := p.leaveOutMembers(groups)
	kss := make([]float64, m)
	p.Kernel.DiagTo(kss, xs)
	if n == 0 {
		for k := range kss {
			mean[k], variance[k] = 0, kss[k]
		}
		return nil
	}
	kq := p.leaveOutLatents(mean, variance, xs, self, kss)
	t := p.memberRows(members, rows)
	ka := kq.RawMatrix()
	var bad int
	r := 0
	for k, g := range members {
		a := vec(ka.Data[k*ka.Stride : k*ka.Stride+n])
		mu, v, ok := p.divideOut(g, a, t[r*n:], mean[k], variance[k])
		r += len(g)
		if !ok || !(v > 0) || math.IsInf(v, 0) || math.IsNaN(mu) {
			mean[k], variance[k] = math.NaN(), math.NaN()
			bad++
			continue
		}
		mean[k], variance[k] = mu, v
	}
	if bad > 0 {
		return fmt.Errorf("ep: LeaveOutTo: %d of %d leave-out marginals lost to rounding (sites dominate the posterior)", bad, m)
	}
	return nil
}

// leaveOutMembers returns the members with a positive site precision of
// each group, and their number over all groups. It panics for a member
// out of range.
func (p *Posterior) leaveOutMembers(groups [][]int) ([][]int, int) {
	n := p.n
	members := make([][]int, len(groups))
	rows := 0
	for k, g := range groups {
		for _, j := range g {
			if j < 0 || j >= n {
				panic(fmt.Sprintf("ep: LeaveOutTo: group member %d out of range [0, %d)", j, n))
			}
			if p.sw[j] > 0 {
				members[k] = append(members[k], j)
			}
		}
		rows += len(members[k])
	}
	return members, rows
}

// leaveOutLatents sets mean and variance to PredictTo's latent at the rows
// of xs, with the jitter of training points (self) added to their prior
// covariance kss and cross-covariances. It returns the cross-covariances,
// whose rows predict leaves as aᵀ = (L⁻¹S^½k_q)ᵀ.
func (p *Posterior) leaveOutLatents(mean, variance []float64, xs *mat.Dense, self []int, kss []float64) *mat.Dense {
	m, n := len(kss), p.n
	kq := mat.NewDense(m, n, nil)
	p.Kernel.CrossTo(kq, xs, p.X)
	jit := p.Kernel.DiagJitter()
	for k := 0; k < m; k++ {
		if self != nil && self[k] >= 0 {
			kq.Set(k, self[k], kq.At(k, self[k])+jit)
			kss[k] += jit
		}
	}
	p.predict(mean, variance, nil, kq, kss, m, false)
	return kq
}

// memberRows returns, row after row for the members of every group in
// turn, yⱼᵀ = (L⁻¹e_j)ᵀ: one solve X Lᵀ = E with the members' unit rows
// e_jᵀ (rows×n, row-major).
func (p *Posterior) memberRows(members [][]int, rows int) []float64 {
	n := p.n
	t := make([]float64, rows*n)
	r := 0
	for _, g := range members {
		for _, j := range g {
			t[r*n+j] = 1
			r++
		}
	}
	if rows > 0 {
		e := blas64.General{Rows: rows, Cols: n, Stride: n, Data: t}
		la.SolveLowerTransRightTo(e, p.general(p.l), e)
	}
	return t
}

// divideOut returns the marginal mu, v of a row with the sites of group g
// divided out: m = μ_q + cᵀR⁻¹w, v = Σ_qq + cᵀR⁻¹c (the formulas above),
// from a = L⁻¹S^½k_q and the members' rows yⱼ at the start of t. It
// returns false if R is not positive definite.
func (p *Posterior) divideOut(g []int, a blas64.Vector, t []float64, mu, v float64) (float64, float64, bool) {
	if len(g) == 0 {
		return mu, v, true
	}
	n, gs := p.n, len(g)
	rm := mat.NewSymDense(gs, nil)
	c, w := make([]float64, gs), make([]float64, gs)
	for i, ji := range g {
		yi := vec(t[i*n : (i+1)*n])
		c[i] = blas64.Dot(yi, a)
		for l := 0; l <= i; l++ {
			rm.SetSym(i, l, blas64.Dot(yi, vec(t[l*n:(l+1)*n])))
		}
		s := p.sw[ji]
		w[i] = s*p.Mean[ji] - p.Sites.Nu[ji]/s
	}
	var ch mat.Cholesky
	if !ch.Factorize(rm) {
		return mu, v, false
	}
	var cr mat.VecDense
	if err := ch.SolveVecTo(&cr, mat.NewVecDense(gs, c)); err != nil {
		return mu, v, false
	}
	mu += mat.Dot(&cr, mat.NewVecDense(gs, w))
	v += mat.Dot(&cr, mat.NewVecDense(gs, c))
	return mu, v, true
}
