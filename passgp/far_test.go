package passgp

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/score"
	"github.com/passgp-fast/passgp-fast/synth"
)

// storedNear and storedFar are the gate (Calibration.GateNear and
// GateFar) that model files written by older builds carry and predict
// applies.
const (
	storedNear = 1e-4
	storedFar  = 1e-8
)

// TestFarField: training fits a calibration without a gate; with the
// gate of an older model file and a large constant (θ fixed, t4 = 4
// against t1 = 1), a trained classifier's calibration inputs
// (LatentShareTo, NearTo, Calibration.Gate) far from the data are the
// prior's, z = 0 and ρ = 1,
// and its calibrated probability the class balance, for its EP and its
// FITC posterior, where the raw latent, which Gate leaves alone, is the
// constant's posterior, z ≠ 0 and ρ < 1; near the data (every training
// point) Gate returns its arguments; along a ray out of the data the
// inputs only move towards (0, 1), part of the way at the edge. A poly
// kernel, which has no far field, has correlation 1 everywhere. The
// held-out latents of points far from the data are their raw latents
// and shares, not moved.
func TestFarField(t *testing.T) {
	task := synth.Task{D: 4, Relevant: 2, Flip: 0.05, Priors: []float64{0.85, 0.15}}
	ds, err := synth.Dataset(task, 300, 5)
	if err != nil {
		t.Fatal(err)
	}
	x := ds.Dense()
	const nr = 61
	ray := mat.NewDense(nr, 4, nil)
	for i := range nr {
		for j := range 4 {
			ray.Set(i, j, 0.5*float64(i))
		}
	}
	for _, tc := range []struct {
		name string
		k    kernel.Kernel
		fitc bool
		far  bool // whether the kernel has a far field
	}{
		{"se+bias", kernel.SEBias{SE: kernel.SE{Var: 1, Len2: 2, Jitter: 1e-4}, Bias: 4}, false, true},
		{"se+bias FITC", kernel.SEBias{SE: kernel.SE{Var: 1, Len2: 2, Jitter: 1e-4}, Bias: 4}, true, true},
		{"seard+bias", kernel.SEARDBias{SEARD: kernel.SEARD{Var: 1, Len2: []float64{2, 2, 8, 8}, Jitter: 1e-4}, Bias: 4}, false, true},
		{"poly", kernel.Poly{Var: 1, Jitter: 1e-4, Degree: 2, Gamma: 0.25}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Train(context.Background(), x, ds.Y, &Options{Kernel: tc.k, FixedTheta: true, Init: 30, Sub: 60, Passes: 1, Seed: 1})
			if err == nil && tc.fitc {
				res, err = TrainFITC(context.Background(), res.Model, x, ds.Y, &Options{FixedTheta: true})
			}
			if err != nil {
				t.Fatal(err)
			}
			b, cal := res.Model, res.Calibration
			if tc.fitc != (b.Sparse != nil) {
				t.Fatalf("FITC posterior: %v", b.Sparse != nil)
			}
			if cal.GateNear != 0 || cal.GateFar != 0 {
				t.Fatalf("fitted calibration gate %v, %v; want none", cal.GateNear, cal.GateFar)
			}
			cal.GateNear, cal.GateFar = storedNear, storedFar
			z, rho, near := make([]float64, nr), make([]float64, nr), make([]float64, nr)
			b.LatentShareTo(z, rho, ray)
			b.NearTo(near, ray)
			// LatentShareNearTo: the same latents and shares, and the
			// correlations up to rounding (read from the prediction's
			// Gram block without a FITC posterior).
			z2, rho2, near2 := make([]float64, nr), make([]float64, nr), make([]float64, nr)
			b.LatentShareNearTo(z2, rho2, near2, ray)
			for i := range z {
				if z2[i] != z[i] || rho2[i] != rho[i] || math.Abs(near2[i]-near[i]) > 1e-12 {
					t.Fatalf("ray point %d: LatentShareNearTo (%v, %v, %v), LatentShareTo and NearTo (%v, %v, %v)", i, z2[i], rho2[i], near2[i], z[i], rho[i], near[i])
				}
			}
			zm, rm := mat.NewDense(nr, 1, z), mat.NewDense(nr, 1, rho)
			cz, cr := cal.Gate(zm, rm, mat.NewDense(nr, 1, near))
			last := nr - 1
			if !tc.far {
				for i, c := range near {
					if c != 1 {
						t.Fatalf("ray point %d: correlation %v without a far field", i, c)
					}
				}
				if cz != zm || cr != rm {
					t.Fatalf("Gate copied its inputs with every weight 0")
				}
				return
			}
			if near[last] > storedFar || cz.At(last, 0) != 0 || cr.At(last, 0) != 1 {
				t.Errorf("far end: correlation %v, z %v, share %v; want at most %v, 0 and 1", near[last], cz.At(last, 0), cr.At(last, 0), storedFar)
			}
			if math.Abs(z[last]) < 1e-3 || rho[last] > 0.9 {
				t.Errorf("far end: raw latent %v, share %v; the constant's posterior should keep them off 0 and 1", z[last], rho[last])
			}
			p := mat.NewDense(nr, 2, nil)
			cal.ProbTo(p, cz, cr)
			if d := p.At(last, 1) - cal.Balance[0]; math.Abs(d) > 1e-12 {
				t.Errorf("far end: p(+1) = %v, want the balance %v", p.At(last, 1), cal.Balance[0])
			}
			// Along the ray the gate only moves towards the prior, and
			// some points lie in its blend; the raw inputs are unchanged.
			blend := 0
			for i := range z {
				gz, gr := cz.At(i, 0), cr.At(i, 0)
				if gr < rho[i] || math.Abs(gz) > math.Abs(z[i]) || (gz != 0 && math.Signbit(gz) != math.Signbit(z[i])) {
					t.Errorf("ray point %d: (%v, %v) from (%v, %v): not towards (0, 1)", i, gz, gr, z[i], rho[i])
				}
				if near[i] > storedFar && near[i] < storedNear {
					blend++
				}
			}
			if blend == 0 {
				t.Errorf("no ray point in the gate's blend")
			}
			again := make([]float64, nr)
			b.LatentTo(again, ray)
			for i := range again {
				if again[i] != z[i] {
					t.Fatalf("ray point %d: Gate changed the raw latent", i)
				}
			}
			// Near the data Gate returns its arguments.
			nt := ds.N
			ct := make([]float64, nt)
			b.NearTo(ct, x)
			zt, rt := mat.NewDense(nt, 1, nil), mat.NewDense(nt, 1, nil)
			if a, c := cal.Gate(zt, rt, mat.NewDense(nt, 1, ct)); a != zt || c != rt {
				t.Fatalf("Gate moved a training point: smallest correlation %v", floats.Min(ct))
			}
			// Held-out latents: the training points' are those without
			// the ray, whose points (appended, never trained on) get
			// their raw predictions, not moved by any gate.
			if tc.fitc {
				return // the FITC pass's held-out latents need its own training points
			}
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
		})
	}
}

// TestGramNearOf: correlations are read from the whole kernel's Gram
// block unless its constant is so large against the stationary variance
// that subtracting it would blur the gate (then NearTo computes them),
// and kernels without a stationary part read 1; LatentShareNearTo agrees
// with NearTo in both cases.
func TestGramNearOf(t *testing.T) {
	se := kernel.SE{Var: 1, Len2: 2, Jitter: 1e-4}
	for _, tc := range []struct {
		k    kernel.Kernel
		ok   bool
		flat bool
	}{
		{se, true, false},
		{kernel.SEBias{SE: se, Bias: 4}, true, false},
		{kernel.SEBias{SE: se, Bias: 1e6}, false, false},
		{kernel.Poly{Var: 1, Jitter: 1e-4, Degree: 2}, true, true},
	} {
		g, ok := score.NearOf(tc.k)
		if ok != tc.ok || g.Flat != tc.flat {
			t.Errorf("%s %v: ok %v, flat %v", tc.k.Name(), tc.k.Params(), ok, g.Flat)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		xa := mat.NewDense(20, 3, nil)
		ya := make([]float64, 20)
		for i := range 20 {
			for j := range 3 {
				xa.Set(i, j, rng.NormFloat64())
			}
			ya[i] = float64(2*(i%2) - 1)
		}
		b, err := newBinary(tc.k, xa, ya, nil, ep.Sites{Tau: make([]float64, 20), Nu: make([]float64, 20)})
		if err != nil {
			t.Fatal(err)
		}
		x := mat.NewDense(30, 3, nil)
		for i := range 30 {
			for j := range 3 {
				x.Set(i, j, float64(i)*rng.NormFloat64())
			}
		}
		want, got := make([]float64, 30), make([]float64, 30)
		b.NearTo(want, x)
		b.LatentShareNearTo(make([]float64, 30), nil, got, x)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 || (tc.flat && got[i] != 1) {
				t.Errorf("%s %v: row %d: %v, NearTo %v", tc.k.Name(), tc.k.Params(), i, got[i], want[i])
			}
		}
	}
}
