package model

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/internal/testenv"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// storedNear and storedFar are the gate (Calibration.GateNear and
// GateFar) that model files written by older builds carry.
const (
	storedNear = 1e-4
	storedFar  = 1e-8
)

// TestFarFieldGate: with the gate of an older model file and a large
// constant (θ fixed, t4 = 4 against t1 = 1), a trained classifier's
// calibration inputs (LatentShareTo, nearTo, Calibration.Gate) far from
// the data are the prior's, z = 0 and ρ = 1, and its calibrated
// probability the class balance, for its EP and its FITC posterior,
// where the raw latent, which Gate leaves alone, is the constant's
// posterior, z ≠ 0 and ρ < 1; near the data (every training point) Gate
// returns its arguments; along a ray out of the data the inputs only
// move towards (0, 1), part of the way at the edge. A poly kernel, which
// has no far field, has correlation 1 everywhere.
func TestFarFieldGate(t *testing.T) {
	x, y, ray := testenv.FarField(t)
	nr, _ := ray.Dims()
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
			o := &passgp.Options{Kernel: tc.k, FixedTheta: true, Init: 30, Sub: 60, Passes: 1, Seed: 1}
			res, err := passgp.Train(context.Background(), x, y, o)
			if err == nil && tc.fitc {
				res, err = passgp.TrainFITC(context.Background(), res.Model, x, y, &passgp.Options{FixedTheta: true})
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
			nearTo(b, near, ray)
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
			// some points lie in its blend.
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
			// Near the data Gate returns its arguments.
			ct := make([]float64, len(y))
			nearTo(b, ct, x)
			zt, rt := mat.NewDense(len(y), 1, nil), mat.NewDense(len(y), 1, nil)
			if a, c := cal.Gate(zt, rt, mat.NewDense(len(y), 1, ct)); a != zt || c != rt {
				t.Fatalf("Gate moved a training point: smallest correlation %v", floats.Min(ct))
			}
		})
	}
}

// TestNearTo: nearTo equals the largest of k_s(x, a)/k_s(x, x) over the
// active inputs a, computed one pair at a time, for more rows than one
// chunk, and 1 for a kernel without a stationary part.
func TestNearTo(t *testing.T) {
	se := kernel.SE{Var: 2, Len2: 2, Jitter: 1e-4}
	rng := rand.New(rand.NewPCG(1, 2))
	xa := mat.NewDense(20, 3, nil)
	ya := make([]float64, 20)
	for i := range 20 {
		for j := range 3 {
			xa.Set(i, j, rng.NormFloat64())
		}
		ya[i] = float64(2*(i%2) - 1)
	}
	const n = nearChunk + 44
	x := mat.NewDense(n, 3, nil)
	for i := range n {
		for j := range 3 {
			x.Set(i, j, float64(i%30)*rng.NormFloat64()/10)
		}
	}
	for _, k := range []kernel.Kernel{se, kernel.SEBias{SE: se, Bias: 1e6},
		kernel.SEARD{Var: 2, Len2: []float64{1, 2, 4}, Jitter: 1e-4}, kernel.Poly{Var: 1, Jitter: 1e-4, Degree: 2}} {
		post, err := ep.FromSites(k, xa, ya, ep.Sites{Tau: make([]float64, 20), Nu: make([]float64, 20)})
		if err != nil {
			t.Fatal(err)
		}
		b := &passgp.Binary{Kernel: k, X: xa, Y: ya, Post: post}
		got := make([]float64, n)
		nearTo(b, got, x)
		s, variance, _, ok := kernel.Stationary(k)
		one := mat.NewDense(1, 1, nil)
		for i := range n {
			want := 1.0
			if ok {
				want = 0
				for a := range 20 {
					s.CrossTo(one, mat.NewDense(1, 3, x.RawRowView(i)), mat.NewDense(1, 3, xa.RawRowView(a)))
					want = max(want, one.At(0, 0)/variance)
				}
			}
			if math.Abs(got[i]-want) > 1e-12 {
				t.Fatalf("%s: row %d: %v, pair by pair %v", k.Name(), i, got[i], want)
			}
		}
	}
}
