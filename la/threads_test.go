package la

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
)

func TestThreads(t *testing.T) {
	defer SetThreads(Threads())
	SetThreads(3)
	if Threads() != 3 {
		t.Fatalf("Threads() = %d after SetThreads(3)", Threads())
	}
	want := 3
	if Backend != "openblas" {
		want = 1
	}
	if BLASThreads() != want {
		t.Errorf("BLASThreads() = %d, want %d", BLASThreads(), want)
	}
	for _, c := range []struct{ n, want int }{{0, 1}, {1, 1}, {2, 2}, {10, 3}} {
		if got := Workers(c.n); got != c.want {
			t.Errorf("Workers(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	restore := LimitBLAS(1)
	if BLASThreads() != 1 {
		t.Errorf("BLASThreads() = %d inside LimitBLAS(1)", BLASThreads())
	}
	restore()
	if BLASThreads() != want {
		t.Errorf("BLASThreads() = %d after restore, want %d", BLASThreads(), want)
	}
	SetThreads(0)
	if Threads() != runtime.GOMAXPROCS(0) {
		t.Errorf("SetThreads(0) gave %d threads", Threads())
	}
}

// TestCholeskyThreadsDeterministic checks that the factor does not depend on
// the BLAS thread count beyond rounding (OpenBLAS may split the work
// differently).
func TestCholeskyThreadsDeterministic(t *testing.T) {
	defer SetThreads(Threads())
	rng := rand.New(rand.NewPCG(21, 22))
	a := spdMat(300, 0, 1, rng)
	var ref blas64.General
	for i, n := range []int{1, 2, 4} {
		SetThreads(n)
		l := cloneGeneral(a)
		if !Cholesky(l) {
			t.Fatal("not PD")
		}
		if i == 0 {
			ref = l
			continue
		}
		if d := maxLowerDiff(l, ref); d > 1e-12 {
			t.Errorf("threads=%d: factor differs by %g", n, d)
		}
	}
}
