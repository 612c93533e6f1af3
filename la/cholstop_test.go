package la

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCholeskyStop: without a stop CholeskyStop's factor is Cholesky's bit
// for bit; a stop that says yes at its k-th question ends the
// factorisation there (no further question) with stopped set.
func TestCholeskyStop(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	for _, n := range []int{1, 100, 129, 500} {
		a := spdMat(n, 3, 0.5, rng)
		want := cloneGeneral(a)
		if !Cholesky(want) {
			t.Fatalf("n=%d: not PD", n)
		}
		got := cloneGeneral(a)
		asked := 0
		ok, stopped := CholeskyStop(got, func() bool { asked++; return false })
		if !ok || stopped {
			t.Fatalf("n=%d: ok %v stopped %v", n, ok, stopped)
		}
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				if g, w := got.Data[i*got.Stride+j], want.Data[i*want.Stride+j]; g != w && !(math.IsNaN(g) && math.IsNaN(w)) {
					t.Fatalf("n=%d: L[%d,%d] = %v, Cholesky %v", n, i, j, g, w)
				}
			}
		}
		if n <= triNB {
			if asked != 0 {
				t.Errorf("n=%d: stop asked %d times for one leaf", n, asked)
			}
			continue
		}
		if asked < 3 {
			t.Errorf("n=%d: stop asked %d times", n, asked)
		}
		for _, k := range []int{1, asked} {
			c, q := cloneGeneral(a), 0
			ok, stopped := CholeskyStop(c, func() bool { q++; return q >= k })
			if ok || !stopped || q != k {
				t.Errorf("n=%d, stop at question %d: ok %v stopped %v after %d questions", n, k, ok, stopped, q)
			}
		}
	}
}

// TestInvLowerStop: without a stop InvLowerStop's inverse is InvLowerTo's
// bit for bit; a stop that says yes at its k-th question ends the
// inversion there (no further question) and reports it.
func TestInvLowerStop(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 2))
	for _, n := range []int{1, 100, 129, 500} {
		l := spdMat(n, 3, 0.5, rng)
		if !Cholesky(l) {
			t.Fatalf("n=%d: not PD", n)
		}
		want := cloneGeneral(l)
		InvLowerTo(want, l)
		got := cloneGeneral(l)
		asked := 0
		if InvLowerStop(got, l, func() bool { asked++; return false }) {
			t.Fatalf("n=%d: stopped without a stop", n)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if g, w := got.Data[i*got.Stride+j], want.Data[i*want.Stride+j]; g != w {
					t.Fatalf("n=%d: W[%d,%d] = %v, InvLowerTo %v", n, i, j, g, w)
				}
			}
		}
		if asked < 1 || (n > triNB && asked < 3) {
			t.Errorf("n=%d: stop asked %d times", n, asked)
		}
		for _, k := range []int{1, asked} {
			c, q := cloneGeneral(l), 0
			if !InvLowerStop(c, l, func() bool { q++; return q >= k }) || q != k {
				t.Errorf("n=%d, stop at question %d: not reported, or %d questions", n, k, q)
			}
		}
	}
}

// TestCholeskyInvStop: CholeskyInvStop's factor and inverse are those of
// Cholesky and InvLowerTo bit for bit (the inversion reuses the leaves'
// inverses that the factorisation computed), with a padded stride and at
// sizes of one leaf, one leaf and a sliver, and several; a stop that says
// yes at its k-th question ends it there with stopped set; a matrix that
// is not positive definite is reported as Cholesky reports it.
func TestCholeskyInvStop(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 3))
	for _, n := range []int{1, 64, 100, 128, 129, 250, 300, 500} {
		a := spdMat(n, 3, 0.5, rng)
		wantL := cloneGeneral(a)
		if !Cholesky(wantL) {
			t.Fatalf("n=%d: not PD", n)
		}
		wantW := cloneGeneral(a)
		InvLowerTo(wantW, wantL)
		l, w := cloneGeneral(a), cloneGeneral(a)
		asked := 0
		ok, stopped := CholeskyInvStop(l, w, func() bool { asked++; return false })
		if !ok || stopped {
			t.Fatalf("n=%d: ok %v stopped %v", n, ok, stopped)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if j <= i && l.Data[i*l.Stride+j] != wantL.Data[i*wantL.Stride+j] {
					t.Fatalf("n=%d: L[%d,%d] = %v, Cholesky %v", n, i, j, l.Data[i*l.Stride+j], wantL.Data[i*wantL.Stride+j])
				}
				if w.Data[i*w.Stride+j] != wantW.Data[i*wantW.Stride+j] {
					t.Fatalf("n=%d: W[%d,%d] = %v, InvLowerTo %v", n, i, j, w.Data[i*w.Stride+j], wantW.Data[i*wantW.Stride+j])
				}
			}
		}
		for _, k := range []int{1, asked} {
			if k == 0 {
				continue
			}
			c, cw, q := cloneGeneral(a), cloneGeneral(a), 0
			ok, stopped := CholeskyInvStop(c, cw, func() bool { q++; return q >= k })
			if ok || !stopped || q != k {
				t.Errorf("n=%d, stop at question %d of %d: ok %v stopped %v after %d questions", n, k, asked, ok, stopped, q)
			}
		}
	}
	bad := spdMat(3, 0, 0, rng)
	bad.Data[2*bad.Stride+2] = -1
	if ok, stopped := CholeskyInvStop(bad, cloneGeneral(bad), nil); ok || stopped {
		t.Errorf("indefinite: ok %v stopped %v", ok, stopped)
	}
}
