package kernel

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// This file holds the contractions of cross-covariance and diagonal
// derivatives (CrossGradTraceTo, DiagGradTraceTo). The jitter is on the
// training diagonal only, so it has no cross derivative, and ∂/∂log θ_j of
// an entry proportional to θ_j is the entry itself.

// addJitterTrace adds the jitter's contraction jitter·Σ_i W_ii to dst[j]:
// what GradTraceTo (the training covariance) has beyond CrossGradTraceTo
// on x1 = x2, for the kernels whose GradTraceTo is that sum.
func addJitterTrace(dst []float64, j int, jitter float64, w *mat.Dense) {
	if r, _ := w.Dims(); r > 0 {
		dst[j] += jitter * traceDiag(w)
	}
}

// checkCrossW panics unless w is n1×n2 for x1 (n1×d) and x2 (n2×d).
func checkCrossW(w, x1, x2 *mat.Dense) (n1, n2 int) {
	checkCross(w, x1, x2)
	n1, _ = x1.Dims()
	n2, _ = x2.Dims()
	return n1, n2
}

// seCrossTrace returns Σ W∘E and Σ W∘E∘D for E = exp(-c D), D the squared
// distances between the rows of x1 and x2.
func seCrossTrace(w, x1, x2 *mat.Dense, c float64) (s0, s1 float64) {
	n1, n2 := checkCrossW(w, x1, x2)
	if n1 == 0 || n2 == 0 {
		return 0, 0
	}
	// D is scratch: every evaluation of a θ search's gradient needs one,
	// and SqDistTo overwrites all of it.
	buf := la.GetScratch(n1 * n2)
	defer la.PutScratch(buf)
	raw, rw := blas64.General{Rows: n1, Cols: n2, Stride: n2, Data: *buf}, w.RawMatrix()
	la.SqDistTo(raw, x1.RawMatrix(), x2.RawMatrix())
	for i := 0; i < n1; i++ {
		di := raw.Data[i*raw.Stride : i*raw.Stride+n2]
		wi := rw.Data[i*rw.Stride : i*rw.Stride+n2]
		for j, d := range di {
			we := wi[j] * math.Exp(-c*d)
			s0 += we
			s1 += we * d
		}
	}
	return s0, s1
}

// CrossGradTraceTo: ∂K/∂log t1 = t1 E, ∂K/∂log t2 = t1 E∘D/(2 t2).
func (k SE) CrossGradTraceTo(dst []float64, w, x1, x2 *mat.Dense) {
	c := 1 / (2 * k.Len2)
	s0, s1 := seCrossTrace(w, x1, x2, c)
	dst[0] = k.Var * s0
	dst[1] = k.Var * c * s1
	dst[2] = 0
}

// DiagGradTraceTo: k(x, x) + jitter = t1 + t3.
func (k SE) DiagGradTraceTo(dst, w []float64, x *mat.Dense) {
	s := sumDiagW(w, x)
	dst[0], dst[1], dst[2] = k.Var*s, 0, k.Jitter*s
}

// sumDiagW returns Σ w_i after checking len(w) against x's rows.
func sumDiagW(w []float64, x *mat.Dense) float64 {
	if n, _ := x.Dims(); len(w) != n {
		panic("kernel: weights must have one entry per row")
	}
	return floats.Sum(w)
}

func (k SELin) CrossGradTraceTo(dst []float64, w, x1, x2 *mat.Dense) {
	k.SE.CrossGradTraceTo(dst[:3], w, x1, x2)
	n1, n2 := checkCrossW(w, x1, x2)
	if n1 == 0 || n2 == 0 {
		dst[3] = 0
		return
	}
	tmp := mat.NewDense(n1, n2, nil)
	addLinear(tmp, x1, x2, k.Lin)
	dst[3] = dotElem(w, tmp)
}

// DiagGradTraceTo: k(x, x) + jitter = t1 + t4 |x|² + t3.
func (k SELin) DiagGradTraceTo(dst, w []float64, x *mat.Dense) {
	k.SE.DiagGradTraceTo(dst[:3], w, x)
	n, _ := x.Dims()
	nr := make([]float64, n)
	rowNorms(nr, x)
	dst[3] = k.Lin * floats.Dot(w, nr)
}

func (k SEBias) CrossGradTraceTo(dst []float64, w, x1, x2 *mat.Dense) {
	k.SE.CrossGradTraceTo(dst[:3], w, x1, x2)
	if n1, n2 := checkCrossW(w, x1, x2); n1 == 0 || n2 == 0 {
		dst[3] = 0
		return
	}
	dst[3] = k.Bias * mat.Sum(w)
}

func (k SEBias) DiagGradTraceTo(dst, w []float64, x *mat.Dense) {
	k.SE.DiagGradTraceTo(dst[:3], w, x)
	dst[3] = k.Bias * floats.Sum(w)
}

// CrossGradTraceTo: ∂K/∂log t1 = K.
func (k Poly) CrossGradTraceTo(dst []float64, w, x1, x2 *mat.Dense) {
	n1, n2 := checkCrossW(w, x1, x2)
	dst[0], dst[1] = 0, 0
	if n1 == 0 || n2 == 0 {
		return
	}
	tmp := mat.NewDense(n1, n2, nil)
	k.CrossTo(tmp, x1, x2)
	dst[0] = dotElem(w, tmp)
}

// DiagGradTraceTo: k(x, x) + jitter = t1 (g|x|² + 1)^p + t3.
func (k Poly) DiagGradTraceTo(dst, w []float64, x *mat.Dense) {
	n, _ := x.Dims()
	s := sumDiagW(w, x)
	kd := make([]float64, n)
	k.DiagTo(kd, x)
	dst[0], dst[1] = floats.Dot(w, kd), k.Jitter*s
}

// CrossGradTraceTo computes the d+2 contractions in O(n1 n2 d): with
// B = W∘K, r = B·1, c = Bᵀ·1 and s, u the scaled rows of x1 and x2,
//
//	Σ_ij W_ij ∂K_ij/∂log t2_k = ½ Σ_ij B_ij (s_ik − u_jk)²
//	                          = ½ (Σ_i r_i s_ik² + Σ_j c_j u_jk² − 2 s_kᵀ B u_k),
//
// the cross form of GradTraceTo's identity (one DGEMM, B·U).
func (k SEARD) CrossGradTraceTo(dst []float64, w, x1, x2 *mat.Dense) {
	n1, n2 := checkCrossW(w, x1, x2)
	d := len(k.Len2)
	clear(dst[:d+2])
	if n1 == 0 || n2 == 0 {
		return
	}
	s, u := k.scaled(x1), k.scaled(x2)
	b := mat.NewDense(n1, n2, nil)
	la.GramSETo(b.RawMatrix(), s.RawMatrix(), u.RawMatrix(), k.Var, 0.5)
	b.MulElem(b, w)
	r, c := make([]float64, n1), make([]float64, n2)
	for i := range r {
		r[i] = floats.Sum(b.RawRowView(i))
		floats.Add(c, b.RawRowView(i))
	}
	dst[0] = floats.Sum(r)
	var p mat.Dense
	p.Mul(b, u)
	q := dst[1 : 1+d]
	for i := range r {
		si, pi := s.RawRowView(i), p.RawRowView(i)
		for j, v := range si {
			q[j] += v * (r[i]*v - 2*pi[j])
		}
	}
	for i := range c {
		for j, v := range u.RawRowView(i) {
			q[j] += c[i] * v * v
		}
	}
	floats.Scale(0.5, q)
}

// DiagGradTraceTo: k(x, x) + jitter = t1 + t3.
func (k SEARD) DiagGradTraceTo(dst, w []float64, x *mat.Dense) {
	d := len(k.Len2)
	s := sumDiagW(w, x)
	clear(dst[:d+2])
	dst[0], dst[1+d] = k.Var*s, k.Jitter*s
}

func (k SEARDBias) CrossGradTraceTo(dst []float64, w, x1, x2 *mat.Dense) {
	np := len(k.Len2) + 3
	k.SEARD.CrossGradTraceTo(dst[:np-1], w, x1, x2)
	if n1, n2 := checkCrossW(w, x1, x2); n1 == 0 || n2 == 0 {
		dst[np-1] = 0
		return
	}
	dst[np-1] = k.Bias * mat.Sum(w)
}

func (k SEARDBias) DiagGradTraceTo(dst, w []float64, x *mat.Dense) {
	np := len(k.Len2) + 3
	k.SEARD.DiagGradTraceTo(dst[:np-1], w, x)
	dst[np-1] = k.Bias * floats.Sum(w)
}
