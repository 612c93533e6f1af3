package blasinit

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	gonumblas "gonum.org/v1/gonum/blas/gonum"
	gonumlapack "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/passgp-fast/passgp-fast/la"
)

// Sizes of Check's problems: odd orders, so that the kernels' edge cases
// run, and large enough for OpenBLAS's blocked and multi-threaded paths
// and for two levels of la.Cholesky's recursion (its leaves have order
// 128). The pure-Go reference takes a few milliseconds.
const (
	checkM, checkN, checkK = 201, 193, 187
	checkChol              = 299
)

// corrupt, when set, perturbs the BLAS library's DGEMM result before
// Check compares it, so that tests can see Check fail.
var corrupt bool

// Check compares the BLAS library in use (blas64 and lapack64, which
// package la sets to OpenBLAS) with gonum's pure-Go BLAS and LAPACK on a
// DGEMM C = 1.5 A Bᵀ - 0.5 C and on the Cholesky factors of an SPD matrix
// from LAPACK's dpotrf and la.Cholesky, and returns an error naming the
// first that disagrees. It takes a few milliseconds.
//
// Tolerances: each DGEMM element may differ by 4(k+2)ε times a bound on
// the same product of the absolute values, twice the rounding-error bound
// γ_{k+2} of either result (Higham, Accuracy and Stability of Numerical
// Algorithms, 2nd ed., §3.5); the factors, of a matrix with condition
// number below 3, by 32nε times the largest element of L, a factor of 10
// above the backward-error bound of Cholesky (Higham §10.1) times that
// condition number. Faulty kernels miss by orders of magnitude.
func Check() error {
	rng := rand.New(rand.NewPCG(1, 2))
	if err := checkGemm(rng); err != nil {
		return err
	}
	return checkCholesky(rng)
}

func checkGemm(rng *rand.Rand) error {
	m, n, k := checkM, checkN, checkK
	a, b, c := randMat(rng, m, k), randMat(rng, n, k), randMat(rng, m, n)
	const alpha, beta = 1.5, -0.5
	got := blas64.General{Rows: m, Cols: n, Stride: n, Data: append([]float64(nil), c...)}
	blas64.Gemm(blas.NoTrans, blas.Trans, alpha,
		blas64.General{Rows: m, Cols: k, Stride: k, Data: a},
		blas64.General{Rows: n, Cols: k, Stride: k, Data: b}, beta, got)
	if corrupt {
		got.Data[len(got.Data)/2] += 1e-6
	}
	ref := append([]float64(nil), c...)
	var g gonumblas.Implementation
	g.Dgemm(blas.NoTrans, blas.Trans, m, n, k, alpha, a, k, b, k, beta, ref, n)
	// bound_ij = |alpha| |a_i|₂ |b_j|₂ + |beta| |c_ij|, which is at least
	// (|alpha| |A| |B|ᵀ + |beta| |C|)_ij by the Cauchy-Schwarz inequality.
	na, nb := rowNorms(a, m, k), rowNorms(b, n, k)
	bound := make([]float64, m*n)
	for i := range m {
		for j := range n {
			bound[i*n+j] = math.Abs(alpha)*na[i]*nb[j] + math.Abs(beta)*math.Abs(c[i*n+j])
		}
	}
	eps := math.Nextafter(1, 2) - 1
	for i, r := range ref {
		d := math.Abs(got.Data[i]-r) / (4 * float64(k+2) * eps * bound[i])
		if !(d <= 1) {
			return fmt.Errorf("DGEMM (%d×%d×%d) differs from gonum's by %.3g times the tolerance at element %d", m, n, k, d, i)
		}
	}
	return nil
}

func checkCholesky(rng *rand.Rand) error {
	n := checkChol
	// A symmetric matrix with 2 on the diagonal and off-diagonal elements
	// in [-1/n, 1/n): by Gershgorin's theorem its eigenvalues lie in
	// (1, 3), so it is positive definite with condition number below 3.
	spd := make([]float64, n*n)
	for i := 0; i < n; i++ {
		spd[i*n+i] = 2
		for j := 0; j < i; j++ {
			v := (2*rng.Float64() - 1) / float64(n)
			spd[i*n+j], spd[j*n+i] = v, v
		}
	}
	ref := append([]float64(nil), spd...)
	if !(gonumlapack.Implementation{}).Dpotrf(blas.Lower, n, ref, n) {
		return fmt.Errorf("gonum's Cholesky factorisation failed on a positive definite matrix")
	}
	lmax := 0.0
	for i := 0; i < n; i++ {
		for _, v := range ref[i*n : i*n+i+1] {
			lmax = max(lmax, math.Abs(v))
		}
	}
	tol := 32 * float64(n) * (math.Nextafter(1, 2) - 1) * lmax
	for _, f := range []struct {
		name   string
		factor func(a []float64) bool
	}{
		{"LAPACK's dpotrf", func(a []float64) bool {
			_, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: a})
			return ok
		}},
		{"la.Cholesky", func(a []float64) bool {
			return la.Cholesky(blas64.General{Rows: n, Cols: n, Stride: n, Data: a})
		}},
	} {
		got := append([]float64(nil), spd...)
		if !f.factor(got) {
			return fmt.Errorf("%s (n = %d) failed on a positive definite matrix", f.name, n)
		}
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				if d := math.Abs(got[i*n+j] - ref[i*n+j]); !(d <= tol) {
					return fmt.Errorf("%s (n = %d) differs from gonum's by %.3g at (%d, %d), tolerance %.3g", f.name, n, d, i, j, tol)
				}
			}
		}
	}
	return nil
}

// randMat returns r·c uniform values in [-1, 1).
func randMat(rng *rand.Rand, r, c int) []float64 {
	m := make([]float64, r*c)
	for i := range m {
		m[i] = 2*rng.Float64() - 1
	}
	return m
}

// rowNorms returns the Euclidean norms of the r rows of length c of x.
func rowNorms(x []float64, r, c int) []float64 {
	y := make([]float64, r)
	for i := range y {
		y[i] = math.Sqrt(gonumblas.Implementation{}.Ddot(c, x[i*c:], 1, x[i*c:], 1))
	}
	return y
}
