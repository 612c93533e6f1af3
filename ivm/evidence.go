package ivm

import (
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/internal/onepass"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// SiteEvidence returns the IVM approximation of the log marginal
// likelihood of the selected inputs xa with their ADF sites (tau, nu)
// held fixed (Lawrence, Seeger & Herbrich 2003): the sites are Gaussian
// pseudo-observations m̃ = ν̃/τ̃ with noise variance 1/τ̃, so
// log Z = log N(m̃ | 0, C), C = K_AA + diag(1/τ̃), and its gradient in
// log θ, ½ Σ_ik W_ik ∂K_ik/∂log θ_j with W = C⁻¹m̃m̃ᵀC⁻¹ − C⁻¹.
// grad may be nil. ok is false when C is not positive definite.
//
// A site with τ̃ = 0 (or not finite) is a pseudo-observation of infinite
// noise: it contributes nothing that depends on θ, and 1/τ̃ cannot enter C,
// so it is left out.
func SiteEvidence(k kernel.Kernel, xa *mat.Dense, tau, nu, grad []float64) (logZ float64, ok bool) {
	if slices.ContainsFunc(tau, uninformative) {
		var keep []int
		for i, t := range tau {
			if !uninformative(t) {
				keep = append(keep, i)
			}
		}
		if len(keep) == 0 {
			clear(grad)
			return 0, true
		}
		return SiteEvidence(k, gatherRows(xa, keep), gather(tau, keep), gather(nu, keep), grad)
	}
	n, _ := xa.Dims()
	c := mat.NewDense(n, n, nil)
	k.TrainTo(c, xa)
	mt := mat.NewVecDense(n, nil)
	for i := 0; i < n; i++ {
		c.Set(i, i, c.At(i, i)+1/tau[i])
		mt.SetVec(i, nu[i]/tau[i])
	}
	var ch mat.Cholesky
	if !ch.Factorize(mat.NewSymDense(n, c.RawMatrix().Data)) {
		return math.Inf(-1), false
	}
	var a mat.VecDense
	if err := ch.SolveVecTo(&a, mt); err != nil {
		return math.Inf(-1), false
	}
	logZ = -0.5*mat.Dot(mt, &a) - 0.5*ch.LogDet() - 0.5*float64(n)*math.Log(2*math.Pi)
	if grad != nil {
		var w mat.SymDense
		if err := ch.InverseTo(&w); err != nil {
			return logZ, false
		}
		wd := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				wd.Set(i, j, a.AtVec(i)*a.AtVec(j)-w.At(i, j))
			}
		}
		k.GradTraceTo(grad, wd, xa)
		for j := range grad {
			grad[j] *= 0.5
		}
	}
	return logZ, true
}

func uninformative(tau float64) bool { return !(tau > 0) || math.IsInf(tau, 0) }

// gatherRows returns the rows idx of x as a new matrix.
func gatherRows(x *mat.Dense, idx []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for r, i := range idx {
		out.SetRow(r, x.RawRowView(i))
	}
	return out
}

// gather returns v[idx].
func gather(v []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for r, i := range idx {
		out[r] = v[i]
	}
	return out
}

// Optimize maximises SiteEvidence over log θ with L-BFGS in at most
// maxEvals evaluations, θ clamped to [lo, hi] (nil: ep's default bounds;
// a bound component's gradient is zeroed, as in ep.Optimize), the
// components marked in fixed held. It returns the best kernel found,
// which of its components sit at a bound, and the number of evaluations.
func Optimize(ctx context.Context, k kernel.Kernel, xa *mat.Dense, tau, nu []float64, fixed []bool, lo, hi []float64, maxEvals int) (best kernel.Kernel, atBound []bool, evals int) {
	box := ep.NewLogBox(k.Params(), fixed, lo, hi)
	np, free := len(box.Theta0), box.Free
	if len(free) == 0 {
		return k, make([]bool, np), 0
	}
	best, atBound = k, make([]bool, np)
	bestF := math.Inf(1)
	g := make([]float64, np)
	fg := func(u, grad []float64) float64 {
		th, at := box.Theta(u)
		kk := k.WithParams(th)
		evals++
		lz, ok := SiteEvidence(kk, xa, tau, nu, g)
		if !ok {
			clear(grad)
			return math.Inf(1)
		}
		if -lz < bestF {
			best, bestF, atBound = kk, -lz, at
		}
		for i, j := range free {
			grad[i] = 0
			if !at[j] {
				grad[i] = -g[j]
			}
		}
		return -lz
	}
	onepass.LBFGS(ctx, fg, box.Start(), maxEvals, 1e-6, 1e-6)
	return best, atBound, evals
}
