package la

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// triSizes are the orders the factorisation and solves are tested on: odd
// sizes and sizes around the leaf order 64 and its multiples.
var triSizes = []int{1, 2, 3, 7, 17, 63, 64, 65, 127, 128, 129, 191, 257, 500}

// spdMat returns an n×n SPD matrix I·shift + G Gᵀ/n with a row stride of
// n+pad and NaN in the unused strict upper triangle and padding, so that a
// read of them shows up in the result.
func spdMat(n, pad int, shift float64, rng *rand.Rand) blas64.General {
	g := make([]float64, n*n)
	for i := range g {
		g[i] = 2*rng.Float64() - 1
	}
	s := n + pad
	a := blas64.General{Rows: n, Cols: n, Stride: s, Data: make([]float64, n*s)}
	for i := range a.Data {
		a.Data[i] = math.NaN()
	}
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			var v float64
			for k := 0; k < n; k++ {
				v += g[i*n+k] * g[j*n+k]
			}
			v /= float64(n)
			if i == j {
				v += shift
			}
			a.Data[i*s+j] = v
		}
	}
	return a
}

func cloneGeneral(a blas64.General) blas64.General {
	c := a
	c.Data = append([]float64(nil), a.Data...)
	return c
}

// cholRef is the textbook column Cholesky (GVL Alg. 4.2.1), the reference.
func cholRef(a blas64.General) bool {
	n, s := a.Rows, a.Stride
	for j := 0; j < n; j++ {
		d := a.Data[j*s+j]
		for k := 0; k < j; k++ {
			d -= a.Data[j*s+k] * a.Data[j*s+k]
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		a.Data[j*s+j] = d
		for i := j + 1; i < n; i++ {
			v := a.Data[i*s+j]
			for k := 0; k < j; k++ {
				v -= a.Data[i*s+k] * a.Data[j*s+k]
			}
			a.Data[i*s+j] = v / d
		}
	}
	return true
}

// maxLowerDiff returns max |a-b| over the lower triangles.
func maxLowerDiff(a, b blas64.General) float64 {
	var m float64
	for i := 0; i < a.Rows; i++ {
		for j := 0; j <= i; j++ {
			m = math.Max(m, math.Abs(a.Data[i*a.Stride+j]-b.Data[i*b.Stride+j]))
		}
	}
	return m
}

func TestCholesky(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range triSizes {
		for _, pad := range []int{0, 3} {
			a := spdMat(n, pad, 1, rng)
			got := cloneGeneral(a)
			if !Cholesky(got) {
				t.Fatalf("n=%d: Cholesky reported a PD matrix as not PD", n)
			}
			want := cloneGeneral(a)
			if !cholRef(want) {
				t.Fatalf("n=%d: reference failed", n)
			}
			// B = I + G Gᵀ/n has eigenvalues in [1, ~5], so L is well
			// conditioned; the factors agree to a few ulps times n.
			tol := 1e-14 * float64(n+10)
			if d := maxLowerDiff(got, want); d > tol || math.IsNaN(d) {
				t.Errorf("n=%d pad=%d: |L - Lref|max = %g > %g", n, pad, d, tol)
			}
			lp := cloneGeneral(a)
			if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: lp.Stride, Data: lp.Data}); !ok {
				t.Fatalf("n=%d: Potrf failed", n)
			}
			if d := maxLowerDiff(got, lp); d > tol {
				t.Errorf("n=%d pad=%d: |L - Lpotrf|max = %g > %g", n, pad, d, tol)
			}
			// The strict upper triangle and the padding are untouched.
			for i := 0; i < n; i++ {
				for j := i + 1; j < a.Stride; j++ {
					if !math.IsNaN(got.Data[i*a.Stride+j]) {
						t.Fatalf("n=%d: element (%d,%d) above the diagonal was written", n, i, j)
					}
				}
			}
		}
	}
}

// TestCholeskyReconstruct checks L Lᵀ = A on an ill-conditioned matrix
// (eigenvalues down to 1e-8), where the backward error stays small although
// the factor is not comparable elementwise.
func TestCholeskyReconstruct(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{65, 300} {
		a := spdMat(n, 0, 1e-8, rng)
		l := cloneGeneral(a)
		if !Cholesky(l) {
			t.Fatalf("n=%d: not PD", n)
		}
		var worst float64
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				var v float64
				for k := 0; k <= j; k++ {
					v += l.Data[i*n+k] * l.Data[j*n+k]
				}
				worst = math.Max(worst, math.Abs(v-a.Data[i*n+j]))
			}
		}
		if tol := 1e-15 * float64(n) * 10; worst > tol {
			t.Errorf("n=%d: |L Lᵀ - A|max = %g > %g", n, worst, tol)
		}
	}
}

func TestCholeskyNotPD(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 7, 64, 65, 200} {
		// Make the trailing part indefinite at different depths: the first
		// leaf, a middle leaf, and the last pivot.
		for _, at := range []int{0, n / 2, n - 1} {
			a := spdMat(n, 1, 1, rng)
			a.Data[at*a.Stride+at] -= 10 // eigenvalue shift below zero
			if Cholesky(cloneGeneral(a)) {
				t.Errorf("n=%d: indefinite at %d reported PD", n, at)
			}
		}
		a := spdMat(n, 0, 1, rng)
		a.Data[(n-1)*n] = math.NaN()
		if Cholesky(a) {
			t.Errorf("n=%d: NaN input reported PD", n)
		}
		a = spdMat(n, 0, 1, rng)
		a.Data[n*n-1] = math.Inf(1)
		if Cholesky(a) {
			t.Errorf("n=%d: +Inf pivot reported PD", n)
		}
	}
	if !Cholesky(blas64.General{}) {
		t.Error("empty matrix reported not PD")
	}
}

func TestCholeskyPanics(t *testing.T) {
	for name, a := range map[string]blas64.General{
		"non-square": {Rows: 2, Cols: 3, Stride: 3, Data: make([]float64, 6)},
		"short":      {Rows: 3, Cols: 3, Stride: 3, Data: make([]float64, 8)},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			Cholesky(a)
		}()
	}
}

func TestCholeskyNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop workspaces at random")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	a := spdMat(300, 0, 1, rng)
	w := cloneGeneral(a)
	Cholesky(w)
	allocs := testing.AllocsPerRun(5, func() {
		copy(w.Data, a.Data)
		Cholesky(w)
	})
	// sync.Pool may drop the workspace at a GC; allow a stray allocation.
	if allocs > 1 {
		t.Errorf("Cholesky allocates %v times per call", allocs)
	}
}

// TestConcurrent runs factorisations and solves from several goroutines at
// once (as a worker pool with single-threaded BLAS does); run it with -race.
func TestConcurrent(t *testing.T) {
	defer LimitBLAS(1)()
	rng := rand.New(rand.NewPCG(9, 10))
	a := spdMat(150, 0, 1, rng)
	want := cloneGeneral(a)
	if !Cholesky(want) {
		t.Fatal("not PD")
	}
	b := randGeneral(150, 40, rng)
	wantX := cloneGeneral(b)
	SolveLowerTo(wantX, want, wantX)
	errs := make(chan string, 8)
	done := make(chan struct{})
	for w := 0; w < 4; w++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for it := 0; it < 5; it++ {
				l := cloneGeneral(a)
				if !Cholesky(l) || maxLowerDiff(l, want) != 0 {
					errs <- "Cholesky differs"
					return
				}
				x := cloneGeneral(b)
				SolveLowerTo(x, l, x)
				if maxDiff(x, wantX) != 0 {
					errs <- "SolveLowerTo differs"
					return
				}
			}
		}()
	}
	for w := 0; w < 4; w++ {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
