package passgp

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/internal/testenv"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestHeldOutFar: the held-out latents of points far from the data
// (a ray out of it, appended to the training points, never trained on)
// are their raw predictions, the constant's posterior of a large bias,
// and the training points' are those without the ray.
func TestHeldOutFar(t *testing.T) {
	x, y, ray := testenv.FarField(t)
	nr, _ := ray.Dims()
	k := kernel.SEBias{SE: kernel.SE{Var: 1, Len2: 2, Jitter: 1e-4}, Bias: 4}
	res, err := Train(context.Background(), x, y, &Options{Kernel: k, FixedTheta: true, Init: 30, Sub: 60, Passes: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Model
	z, rho := make([]float64, nr), make([]float64, nr)
	b.LatentShareTo(z, rho, ray)
	if math.Abs(z[nr-1]) < 1e-3 || rho[nr-1] > 0.9 {
		t.Errorf("far end: raw latent %v, share %v; the constant's posterior should keep them off 0 and 1", z[nr-1], rho[nr-1])
	}
	nt := len(y)
	xr := mat.NewDense(nt+nr, 4, nil)
	xr.Slice(0, nt, 0, 4).(*mat.Dense).Copy(x)
	xr.Slice(nt, nt+nr, 0, 4).(*mat.Dense).Copy(ray)
	hz, hr, _, err := heldOutLatents(context.Background(), newRunner(1), b, DenseRows(xr), nil)
	if err != nil {
		t.Fatal(err)
	}
	z0, r0, _, err := heldOutLatents(context.Background(), newRunner(1), b, DenseRows(x), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range nt {
		// Another chunking of the rows: the same up to rounding.
		if math.Abs(hz[i]-z0[i]) > 1e-12 || math.Abs(hr[i]-r0[i]) > 1e-12 {
			t.Fatalf("training point %d: held-out (%v, %v), without the ray (%v, %v)", i, hz[i], hr[i], z0[i], r0[i])
		}
	}
	for i := range nr {
		// Another chunking of the rows: equal up to rounding.
		if math.Abs(hz[nt+i]-z[i]) > 1e-9 || math.Abs(hr[nt+i]-rho[i]) > 1e-9 {
			t.Fatalf("ray point %d: held-out (%v, %v), raw prediction (%v, %v)", i, hz[nt+i], hr[nt+i], z[i], rho[i])
		}
	}
}
