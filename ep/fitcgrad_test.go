package ep

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestFITCGrad compares InferFITCGrad's gradient with central differences
// of log Z_EP in log θ_j (EP converged tightly at each θ), for kernels
// with and without a bias or ARD, inducing inputs inside and outside the
// training set, and both ways of holding U (stored and recomputed in
// blocks, which must give the same gradient). With the flip likelihood the
// formula is exact only while no site is clipped to zero precision, as for
// Posterior.GradientTo (TestFlipEP), so the probit is what is checked.
func TestFITCGrad(t *testing.T) {
	x, y := blobs(60, 3)
	other, _ := blobs(9, 5)
	sub := mat.DenseCopyOf(x.Slice(0, 12, 0, 2))
	ard := kernel.NewSEARD(2, 2, 0.8, 1e-2)
	ard.Len2[1] = 2.5
	for _, c := range []struct {
		name string
		k    kernel.Kernel
		xm   *mat.Dense
	}{
		{"se subset", kernel.SE{Var: 2, Len2: 0.8, Jitter: 1e-2}, sub},
		{"se+bias other", kernel.SEBias{SE: kernel.SE{Var: 3, Len2: 1.5, Jitter: 1e-2}, Bias: 0.5}, other},
		{"se+lin", kernel.SELin{SE: kernel.SE{Var: 5, Len2: 0.5, Jitter: 1e-2}, Lin: 0.3}, sub},
		{"seard+bias", kernel.SEARDBias{SEARD: ard, Bias: 0.7}, other},
	} {
		o := &Options{SiteTol: 1e-11, MaxSweeps: 2000}
		f, g, err := InferFITCGrad(context.Background(), c.k, x, y, c.xm, nil, o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if f.LogZ == 0 || len(g) != len(c.k.Params()) {
			t.Fatalf("%s: log Z %v, gradient %v", c.name, f.LogZ, g)
		}
		const h = 1e-4
		for j := range g {
			lz := func(s float64) float64 {
				th := c.k.Params()
				th[j] *= math.Exp(s)
				fj, err := InferFITC(context.Background(), c.k.WithParams(th), x, y, c.xm, &f.Sites, o)
				if err != nil {
					t.Fatalf("%s: θ_%d: %v", c.name, j, err)
				}
				return fj.LogZ
			}
			fd := (lz(h) - lz(-h)) / (2 * h)
			if math.Abs(g[j]-fd) > 1e-5*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s: ∂ log Z/∂log θ_%d = %v, finite difference %v", c.name, j, g[j], fd)
			}
		}
		old := fitcStoreBytes
		fitcStoreBytes = 0
		_, g2, err := InferFITCGrad(context.Background(), c.k, x, y, c.xm, nil, o)
		fitcStoreBytes = old
		if err != nil {
			t.Fatal(err)
		}
		// Blocks of 16 rows: the passes accumulate over four blocks
		// (sums in another order, so equal up to rounding).
		oldBlock := fitcBlock
		fitcBlock = 16
		_, g3, err := InferFITCGrad(context.Background(), c.k, x, y, c.xm, nil, o)
		fitcBlock = oldBlock
		if err != nil {
			t.Fatal(err)
		}
		for j := range g {
			if g2[j] != g[j] {
				t.Errorf("%s: gradient %d with U recomputed %v, stored %v", c.name, j, g2[j], g[j])
			}
			if math.Abs(g3[j]-g[j]) > 1e-9*math.Max(1, math.Abs(g[j])) {
				t.Errorf("%s: gradient %d in blocks of 16 rows %v, in one block %v", c.name, j, g3[j], g[j])
			}
		}
	}
}
