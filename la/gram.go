package la

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// checkGram panics unless a (n1×d), b (n2×d) and dst (n1×n2) agree.
func checkGram(dst, a, b blas64.General) {
	if a.Cols != b.Cols {
		panic("la: input dimension mismatch")
	}
	if dst.Rows != a.Rows || dst.Cols != b.Rows {
		panic("la: destination shape mismatch")
	}
}

// DotTo sets dst = a bᵀ: dst[i,j] = a_i·b_j for the rows of a and b.
func DotTo(dst, a, b blas64.General) {
	checkGram(dst, a, b)
	if a.Rows == 0 || b.Rows == 0 {
		return
	}
	if a.Cols == 0 {
		zero(dst)
		return
	}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, b, 0, dst)
}

// SqDistTo sets dst[i,j] = |a_i - b_j|² for the rows of a and b.
// Results are clamped at zero (the GEMM formulation can round below it).
func SqDistTo(dst, a, b blas64.General) {
	checkGram(dst, a, b)
	sqDistRef(dst, a, b)
}

// GramSETo sets dst[i,j] = amp·exp(-c·|a_i - b_j|²), the squared-exponential
// Gram block (c = 1/(2ℓ²)).
func GramSETo(dst, a, b blas64.General, amp, c float64) {
	checkGram(dst, a, b)
	gramSERef(dst, a, b, amp, c)
}

// GramPolyTo sets dst[i,j] = amp·(g·a_i·b_j + off)^p, the polynomial Gram
// block.
func GramPolyTo(dst, a, b blas64.General, amp, g, off float64, p int) {
	checkGram(dst, a, b)
	gramPolyRef(dst, a, b, amp, g, off, p)
}

func zero(dst blas64.General) {
	for i := 0; i < dst.Rows; i++ {
		clear(dst.Data[i*dst.Stride : i*dst.Stride+dst.Cols])
	}
}

func row(m blas64.General, i int) []float64 {
	return m.Data[i*m.Stride : i*m.Stride+m.Cols]
}

// sqDistRef is the pure-Go reference: direct differences, no cancellation.
func sqDistRef(dst, a, b blas64.General) {
	for i := 0; i < a.Rows; i++ {
		ai := row(a, i)
		di := row(dst, i)
		for j := 0; j < b.Rows; j++ {
			bj := row(b, j)
			var s float64
			for k, v := range ai {
				t := v - bj[k]
				s += t * t
			}
			di[j] = s
		}
	}
}

func gramSERef(dst, a, b blas64.General, amp, c float64) {
	sqDistRef(dst, a, b)
	for i := 0; i < dst.Rows; i++ {
		di := row(dst, i)
		for j, v := range di {
			di[j] = amp * math.Exp(-c*v)
		}
	}
}

func gramPolyRef(dst, a, b blas64.General, amp, g, off float64, p int) {
	for i := 0; i < a.Rows; i++ {
		ai := row(a, i)
		di := row(dst, i)
		for j := 0; j < b.Rows; j++ {
			bj := row(b, j)
			var s float64
			for k, v := range ai {
				s += v * bj[k]
			}
			di[j] = amp * powi(g*s+off, p)
		}
	}
}

// powi returns x^p for integer p >= 0 by repeated squaring.
func powi(x float64, p int) float64 {
	r := 1.0
	for p > 0 {
		if p&1 == 1 {
			r *= x
		}
		x *= x
		p >>= 1
	}
	return r
}
