package kernel

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// SEARD is the squared-exponential covariance with automatic relevance
// determination, one squared length scale per input feature
// (Rasmussen & Williams eq. 5.2 with M = diag(Len2)⁻¹):
//
//	k(x,x') = Var·exp(-½ Σ_k (x_k-x'_k)²/Len2_k) + Jitter·δ(x,x')
//
// with θ = [t1, t2_1, …, t2_d, t3] = [Var, Len2..., Jitter]. With all
// Len2_k equal it is SE. A large Len2_k switches feature k off; the
// evidence gradient (GradTraceTo) lets ep.Optimize choose them.
//
// The Gram blocks scale the inputs once per call, s_ik = x_ik/√Len2_k, and
// then use la.GramSETo on s with c = ½, so they cost what SE costs. Len2
// must not be modified after the kernel is built (kernels are values;
// WithParams and Params copy).
type SEARD struct {
	Var    float64   // t1, signal variance
	Len2   []float64 // t2_k, squared length scale of feature k
	Jitter float64   // t3, added to the training diagonal only
}

// NewSEARD returns SEARD for d features with every squared length scale
// len2 (the SE kernel with t2 = len2).
func NewSEARD(d int, v, len2, jitter float64) SEARD {
	l := make([]float64, d)
	for i := range l {
		l[i] = len2
	}
	return SEARD{Var: v, Len2: l, Jitter: jitter}
}

func (SEARD) Name() string          { return "seard" }
func (k SEARD) DiagJitter() float64 { return k.Jitter }

func (k SEARD) Params() []float64 {
	p := make([]float64, 0, len(k.Len2)+2)
	p = append(p, k.Var)
	p = append(p, k.Len2...)
	return append(p, k.Jitter)
}

func (k SEARD) ParamNames() []string { return ardNames(len(k.Len2), false) }

func (k SEARD) WithParams(theta []float64) Kernel {
	checkParams(k, theta)
	return seardFrom(theta)
}

func seardFrom(theta []float64) SEARD {
	d := len(theta) - 2
	return SEARD{Var: theta[0], Len2: append([]float64(nil), theta[1:1+d]...), Jitter: theta[1+d]}
}

// ardNames returns t1, t2[1], …, t2[d], t3 (and t4 with bias).
func ardNames(d int, bias bool) []string {
	s := make([]string, 0, d+3)
	s = append(s, "t1")
	for i := 1; i <= d; i++ {
		s = append(s, fmt.Sprintf("t2[%d]", i))
	}
	s = append(s, "t3")
	if bias {
		s = append(s, "t4")
	}
	return s
}

// scaled returns x with column k divided by √Len2_k.
func (k SEARD) scaled(x *mat.Dense) *mat.Dense {
	n, d := x.Dims()
	if d != len(k.Len2) {
		panic(fmt.Sprintf("kernel: seard has %d length scales, input has %d features", len(k.Len2), d))
	}
	inv := make([]float64, d)
	for j, l := range k.Len2 {
		inv[j] = 1 / math.Sqrt(l)
	}
	if n == 0 || d == 0 {
		return x // nothing to scale
	}
	s := mat.NewDense(n, d, nil)
	raw, rs := x.RawMatrix(), s.RawMatrix()
	for i := 0; i < n; i++ {
		xi := raw.Data[i*raw.Stride : i*raw.Stride+d]
		si := rs.Data[i*rs.Stride : i*rs.Stride+d]
		for j, v := range xi {
			si[j] = v * inv[j]
		}
	}
	return s
}

func (k SEARD) CrossTo(dst, x1, x2 *mat.Dense) {
	checkCross(dst, x1, x2)
	s1 := k.scaled(x1)
	s2 := s1
	if x2 != x1 {
		s2 = k.scaled(x2)
	}
	la.GramSETo(dst.RawMatrix(), s1.RawMatrix(), s2.RawMatrix(), k.Var, 0.5)
}

func (k SEARD) TrainTo(dst, x *mat.Dense) {
	checkSquare(dst, x)
	s := k.scaled(x)
	la.GramSETo(dst.RawMatrix(), s.RawMatrix(), s.RawMatrix(), k.Var, 0.5)
	addDiag(dst, k.Jitter)
}

func (k SEARD) DiagTo(dst []float64, x *mat.Dense) {
	n, _ := x.Dims()
	for i := range dst[:n] {
		dst[i] = k.Var
	}
}

// GradTo: ∂K/∂log t1 = K_se, ∂K/∂log t2_k = K_se ∘ (s_ik - s_jk)²/2,
// ∂K/∂log t3 = t3 I, s the scaled inputs.
func (k SEARD) GradTo(dst, x *mat.Dense, j int) {
	checkSquare(dst, x)
	d := len(k.Len2)
	switch {
	case j == 0:
		k.CrossTo(dst, x, x)
	case j >= 1 && j <= d:
		s := k.scaled(x)
		la.GramSETo(dst.RawMatrix(), s.RawMatrix(), s.RawMatrix(), k.Var, 0.5)
		raw, rs := dst.RawMatrix(), s.RawMatrix()
		c := j - 1
		for a := 0; a < raw.Rows; a++ {
			r := raw.Data[a*raw.Stride : a*raw.Stride+raw.Cols]
			sa := rs.Data[a*rs.Stride+c]
			for b := range r {
				t := sa - rs.Data[b*rs.Stride+c]
				r[b] *= 0.5 * t * t
			}
		}
	case j == d+1:
		setDiag(dst, k.Jitter)
	default:
		panic("kernel: parameter index out of range")
	}
}

// GradTraceTo computes all d+2 contractions in O(n²d) time and one n×n
// temporary. With B = W∘K_se (symmetric), r = B·1 and s_k the k-th column
// of the scaled inputs,
//
//	Σ_ij W_ij ∂K_ij/∂log t2_k = ½ Σ_ij B_ij (s_ik - s_jk)² = Σ_i r_i s_ik² - s_kᵀ B s_k,
//
// and the d quadratic forms are the column sums of S∘(B S), one DGEMM.
func (k SEARD) GradTraceTo(dst []float64, w, x *mat.Dense) {
	checkSquare(w, x)
	n, d := x.Dims()
	np := d + 2
	if n == 0 {
		clear(dst[:np])
		return
	}
	s := k.scaled(x)
	b := mat.NewDense(n, n, nil)
	la.GramSETo(b.RawMatrix(), s.RawMatrix(), s.RawMatrix(), k.Var, 0.5)
	rb, rw := b.RawMatrix(), w.RawMatrix()
	r := make([]float64, n)
	var s0 float64
	for i := 0; i < n; i++ {
		bi := rb.Data[i*rb.Stride : i*rb.Stride+n]
		wi := rw.Data[i*rw.Stride : i*rw.Stride+n]
		var ri float64
		for j, v := range bi {
			v *= wi[j]
			bi[j] = v
			ri += v
		}
		r[i] = ri
		s0 += ri
	}
	dst[0] = s0
	var p mat.Dense
	p.Mul(b, s)
	rs, rp := s.RawMatrix(), p.RawMatrix()
	q := dst[1 : 1+d]
	clear(q)
	for i := 0; i < n; i++ {
		si := rs.Data[i*rs.Stride : i*rs.Stride+d]
		pi := rp.Data[i*rp.Stride : i*rp.Stride+d]
		for c, v := range si {
			q[c] += v * (r[i]*v - pi[c])
		}
	}
	dst[1+d] = k.Jitter * traceDiag(w)
}

// SEARDBias is SEARD plus a constant Bias (as SEBias is SE plus one), with
// θ = [t1, t2_1, …, t2_d, t3, t4], t4 = Bias.
type SEARDBias struct {
	SEARD
	Bias float64 // t4, variance of the constant offset
}

func (SEARDBias) Name() string { return "seard+bias" }

func (k SEARDBias) Params() []float64 { return append(k.SEARD.Params(), k.Bias) }

func (k SEARDBias) ParamNames() []string { return ardNames(len(k.Len2), true) }

func (k SEARDBias) WithParams(theta []float64) Kernel {
	checkParams(k, theta)
	return SEARDBias{SEARD: seardFrom(theta[:len(theta)-1]), Bias: theta[len(theta)-1]}
}

func (k SEARDBias) CrossTo(dst, x1, x2 *mat.Dense) {
	k.SEARD.CrossTo(dst, x1, x2)
	addConst(dst, k.Bias)
}

func (k SEARDBias) TrainTo(dst, x *mat.Dense) {
	k.SEARD.TrainTo(dst, x)
	addConst(dst, k.Bias)
}

func (k SEARDBias) DiagTo(dst []float64, x *mat.Dense) {
	n, _ := x.Dims()
	for i := range dst[:n] {
		dst[i] = k.Var + k.Bias
	}
}

// GradTo: the SEARD derivatives, and ∂K/∂log t4 = t4 (every entry).
func (k SEARDBias) GradTo(dst, x *mat.Dense, j int) {
	if j == len(k.Len2)+2 {
		checkSquare(dst, x)
		dst.Zero()
		addConst(dst, k.Bias)
		return
	}
	k.SEARD.GradTo(dst, x, j)
}

// GradTraceTo: the SEARD contractions, and t4 Σ_ik W_ik for the bias.
func (k SEARDBias) GradTraceTo(dst []float64, w, x *mat.Dense) {
	np := len(k.Len2) + 3
	k.SEARD.GradTraceTo(dst[:np-1], w, x)
	if n, _ := x.Dims(); n == 0 {
		dst[np-1] = 0
		return
	}
	dst[np-1] = k.Bias * mat.Sum(w)
}
