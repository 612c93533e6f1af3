package ep

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// PredictState is what a posterior of n training points predicts with
// (PredictCrossTo, paper eq. 4): the representer weights b of the mean
// m* = k*ᵀ b, S^½ and the lower Cholesky factor L of B = I + S^½ K S^½
// of the variance v* = k** − |L⁻¹ S^½ k*|². A posterior rebuilt from it
// (FromPredictState) predicts bit for bit as the original does, without
// refactorising B: a factorisation run again elsewhere may round
// differently (another BLAS kernel or thread count), and it costs n³/3.
type PredictState struct {
	// Alpha (n) are the representer weights b (Posterior.Alpha).
	Alpha []float64
	// SqrtTau (n) is S^½, the square roots of the site precisions.
	SqrtTau []float64
	// L holds the lower triangle of L row by row: row i's i+1 values
	// L[i][0..i], n(n+1)/2 in all. The prediction reads no other entry.
	L []float64
}

// PredictState returns a copy of what p predicts with.
func (p *Posterior) PredictState() PredictState {
	n := p.n
	s := PredictState{Alpha: append([]float64(nil), p.Alpha[:n]...), SqrtTau: append([]float64(nil), p.sw[:n]...),
		L: make([]float64, 0, n*(n+1)/2)}
	for i := range n {
		s.L = append(s.L, p.l[i*n:i*n+i+1]...)
	}
	return s
}

// FromPredictState builds a posterior that predicts from s with kernel k
// on the n training inputs x: PredictTo, PredictCrossTo and their serial
// forms give what the posterior s came from gives, bit for bit. It has
// no sites, labels or marginals (Sites, Y, Mean and Var are nil), so the
// methods that read them (CavityTo, CavityProbTo, GradientTo) are not
// for it. The values are used, not copied. It returns an error when the
// lengths do not fit n.
func FromPredictState(k kernel.Kernel, x *mat.Dense, s PredictState) (*Posterior, error) {
	n, _ := x.Dims()
	if len(s.Alpha) != n || len(s.SqrtTau) != n || len(s.L) != n*(n+1)/2 {
		return nil, fmt.Errorf("ep: prediction state of %d weights, %d site roots and %d factor entries for %d inputs, want %d, %d and %d",
			len(s.Alpha), len(s.SqrtTau), len(s.L), n, n, n, n*(n+1)/2)
	}
	p := &Posterior{Kernel: k, X: x, Alpha: s.Alpha, n: n, sw: s.SqrtTau, l: make([]float64, n*n)}
	at := 0
	for i := range n {
		copy(p.l[i*n:i*n+i+1], s.L[at:at+i+1])
		at += i + 1
	}
	return p, nil
}
