package kernel

import (
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// SerialCrossTo sets dst to k.CrossTo(dst, x1, x2) computed on the calling
// goroutine alone, with no BLAS call (la's serial Gram kernels): the cross
// covariance of a prediction served one core per call (la.SerialGramSETo).
// The values agree with CrossTo's within the Gram kernels' stated bounds
// (CrossTo may take the DGEMM formulation). A Kernel of another package
// has no serial form known here and gets its own CrossTo.
func SerialCrossTo(k Kernel, dst, x1, x2 *mat.Dense) {
	switch k := k.(type) {
	case SE:
		checkCross(dst, x1, x2)
		la.SerialGramSETo(dst.RawMatrix(), x1.RawMatrix(), x2.RawMatrix(), k.Var, 1/(2*k.Len2))
	case SEBias:
		SerialCrossTo(k.SE, dst, x1, x2)
		addConst(dst, k.Bias)
	case SELin:
		SerialCrossTo(k.SE, dst, x1, x2)
		n1, _ := x1.Dims()
		n2, _ := x2.Dims()
		if n1 == 0 || n2 == 0 {
			return
		}
		tmp := mat.NewDense(n1, n2, nil)
		la.SerialDotTo(tmp.RawMatrix(), x1.RawMatrix(), x2.RawMatrix())
		dst.Add(dst, scaled(tmp, k.Lin))
	case SEARD:
		checkCross(dst, x1, x2)
		s1 := k.scaled(x1)
		s2 := s1
		if x2 != x1 {
			s2 = k.scaled(x2)
		}
		la.SerialGramSETo(dst.RawMatrix(), s1.RawMatrix(), s2.RawMatrix(), k.Var, 0.5)
	case SEARDBias:
		SerialCrossTo(k.SEARD, dst, x1, x2)
		addConst(dst, k.Bias)
	case Poly:
		checkCross(dst, x1, x2)
		_, d := x1.Dims()
		la.SerialGramPolyTo(dst.RawMatrix(), x1.RawMatrix(), x2.RawMatrix(), k.Var, k.Scale(d), 1, k.degree())
	default:
		k.CrossTo(dst, x1, x2)
	}
}
