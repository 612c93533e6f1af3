package calib

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// TestCalibrationRecoversProbabilities: latents whose class probabilities
// are known, p(+1) = σ(2z + 0.3), give back that map, and the calibrated
// probabilities of a fresh sample have an ECE below 0.02 (20,000 points,
// seeded).
func TestCalibrationRecoversProbabilities(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sample := func(n int) (*mat.Dense, []int) {
		z := mat.NewDense(n, 1, nil)
		truth := make([]int, n)
		for i := range n {
			v := 1.5 * rng.NormFloat64()
			z.Set(i, 0, v)
			if rng.Float64() < sigmoid(2*v+0.3) {
				truth[i] = 1
			}
		}
		return z, truth
	}
	z, truth := sample(20000)
	c, err := Fit(z, nil, truth)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(c.A-2) > 0.1 || math.Abs(c.B[0]-0.3) > 0.1 {
		t.Errorf("fitted A = %v, B = %v; want about 2 and 0.3", c.A, c.B)
	}
	zt, tt := sample(20000)
	p := mat.NewDense(20000, 2, nil)
	c.ProbTo(p, zt, nil)
	conf, correct := make([]float64, 20000), make([]bool, 20000)
	for i := range conf {
		d := c.Decide(zt.RawRowView(i), nil)
		conf[i], correct[i] = p.At(i, d), d == tt[i]
	}
	if e := ECE(conf, correct, 15); e > 0.02 {
		t.Errorf("ECE of the calibrated probabilities %v > 0.02", e)
	}
}

// TestCalibrationProperties: calibrated probabilities sum to one, each
// class's probability increases with its own latent, and the decision is
// the most probable class.
func TestCalibrationProperties(t *testing.T) {
	for _, eps := range []float64{0, 0.1} {
		testCalibrationProperties(t, eps)
	}
	// A confident mistake costs at most −log(ε/C) with the mixture.
	cb := &Calibration{A: 2, B: []float64{-0.5}, Eps: 0.02}
	zb := mat.NewDense(1, 1, []float64{40})
	if nll := cb.MeanNLL(zb, nil, []int{0}); math.Abs(nll+math.Log(0.01)) > 1e-9 {
		t.Errorf("NLL of a confident mistake with ε = 0.02: %v, want −log 0.01", nll)
	}
}

func testCalibrationProperties(t *testing.T, eps float64) {
	c := &Calibration{A: 1.7, B: []float64{0.2, -0.4, 0.1}, Eps: eps, Balance: []float64{0.7, 0.25, 0.05}}
	rng := rand.New(rand.NewPCG(3, 4))
	z, rho := mat.NewDense(50, 3, nil), mat.NewDense(50, 3, nil)
	for i := range 50 {
		for j := range 3 {
			z.Set(i, j, 3*rng.NormFloat64())
			rho.Set(i, j, rng.Float64())
		}
	}
	p := mat.NewDense(50, 3, nil)
	c.ProbTo(p, z, rho)
	many := make([]int, 50)
	c.DecideTo(many, z, rho)
	for i := range 50 {
		row := p.RawRowView(i)
		if math.Abs(floats.Sum(row)-1) > 1e-12 {
			t.Fatalf("row %d sums to %v", i, floats.Sum(row))
		}
		if d := c.Decide(z.RawRowView(i), rho.RawRowView(i)); d != floats.MaxIdx(row) || many[i] != d {
			t.Errorf("row %d: decision %d (DecideTo %d), most probable %d", i, d, many[i], floats.MaxIdx(row))
		}
		for j := range 3 {
			up := mat.DenseCopyOf(z.Slice(i, i+1, 0, 3))
			up.Set(0, j, up.At(0, j)+0.5)
			q := mat.NewDense(1, 3, nil)
			c.ProbTo(q, up, rho.Slice(i, i+1, 0, 3).(*mat.Dense))
			if !(q.At(0, j) > row[j]) {
				t.Errorf("row %d: p_%d did not increase with z_%d", i, j, j)
			}
		}
	}
	// Binary: two columns that sum to one, decreasing and increasing.
	cb := &Calibration{A: 2, B: []float64{-0.5}, Eps: eps}
	zb := mat.NewDense(3, 1, []float64{-40, 0.25, 40})
	pb := mat.NewDense(3, 2, nil)
	cb.ProbTo(pb, zb, nil)
	if pb.At(0, 1) >= pb.At(1, 1) || pb.At(1, 1) >= pb.At(2, 1) || pb.At(2, 0) <= 0 || math.Abs(pb.At(1, 0)+pb.At(1, 1)-1) > 1e-15 {
		t.Errorf("binary probabilities %v", mat.Formatted(pb))
	}
	if nll := cb.MeanNLL(zb.Slice(2, 3, 0, 1).(*mat.Dense), nil, []int{0}); eps == 0 && nll < 79 {
		t.Errorf("NLL of a confident mistake %v, want about 79.5", nll)
	}
}

// TestCalibrationLabelNoise: with a fraction of labels replaced by a
// uniformly drawn class, p(k) = (1−ε)·σ-or-softmax + ε/C, the fit finds ε
// (binary and three classes), and on clean labels ε stays near 0.
func TestCalibrationLabelNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		k   int
		eps float64
	}{{1, 0.1}, {3, 0.15}, {1, 0}} {
		n := 20000
		nc := max(c.k, 2)
		z := mat.NewDense(n, c.k, nil)
		truth := make([]int, n)
		for i := range n {
			zr := z.RawRowView(i)
			for j := range zr {
				zr[j] = 1.5 * rng.NormFloat64()
			}
			if rng.Float64() < c.eps {
				truth[i] = rng.IntN(nc)
				continue
			}
			if c.k == 1 {
				if rng.Float64() < sigmoid(3*zr[0]) {
					truth[i] = 1
				}
				continue
			}
			w := make([]float64, c.k)
			for j, v := range zr {
				w[j] = 3 * v
			}
			lse := floats.LogSumExp(w)
			u, acc := rng.Float64(), 0.0
			for j := range w {
				if acc += math.Exp(w[j] - lse); u < acc || j == c.k-1 {
					truth[i] = j
					break
				}
			}
		}
		fit, err := Fit(z, nil, truth)
		if err != nil {
			t.Fatal(err)
		}
		if a := slopeCentre(fit); math.Abs(fit.Eps-c.eps) > 0.03 || math.Abs(a-3) > 0.4 {
			t.Errorf("K = %d, ε = %v: fitted ε = %v, slope %v (want about 3)", c.k, c.eps, fit.Eps, a)
		}
		// The mixture explains the data better than the logistic map
		// alone (ε = 0 refitted), and probabilities still sum to one.
		p := mat.NewDense(n, nc, nil)
		fit.ProbTo(p, z, nil)
		for i := range n {
			if s := floats.Sum(p.RawRowView(i)); math.Abs(s-1) > 1e-12 {
				t.Fatalf("row %d sums to %v", i, s)
			}
		}
		if c.eps > 0 {
			plain := *fit
			plain.Eps = 0
			if !(fit.MeanNLL(z, nil, truth) < plain.MeanNLL(z, nil, truth)) {
				t.Errorf("K = %d: NLL with ε %v not below without", c.k, fit.MeanNLL(z, nil, truth))
			}
		}
	}
}

// TestCalibrationGradient: Fit's objective against central
// finite differences, binary and multi-class (with its per-class slopes),
// with ε away from 0 (and, binary, κ away from 1/2), without and with
// prior-variance shares (whose far-field logits depend on ε and κ).
func TestCalibrationGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct {
		k      int
		shares bool
	}{{1, false}, {4, false}, {1, true}, {4, true}} {
		k, n := c.k, 50
		z, rho := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
		truth := make([]int, n)
		for i := range n {
			for j := range k {
				z.Set(i, j, 2*rng.NormFloat64())
				rho.Set(i, j, rng.Float64())
			}
			truth[i] = rng.IntN(max(k, 2))
		}
		var obj func(p, grad []float64) float64
		if c.shares {
			obj = objective(z, rho, truth, classShares(truth, k))
		} else {
			obj = objective(z, nil, truth, nil)
		}
		p := make([]float64, calibrationParams(k)+slopeParams(k))
		for j := range p {
			p[j] = 0.5 * rng.NormFloat64()
		}
		p[k+1] = -1.5
		if k == 1 {
			p[k+2] = -1 // κ = 0.27: the asymmetric mixture
		}
		g := make([]float64, len(p))
		obj(p, g)
		for j := range p {
			const h = 1e-6
			pp, pm := slices.Clone(p), slices.Clone(p)
			pp[j] += h
			pm[j] -= h
			fd := (obj(pp, nil) - obj(pm, nil)) / (2 * h)
			if math.Abs(fd-g[j]) > 1e-7*math.Max(1, math.Abs(fd)) {
				t.Errorf("K = %d, shares %v: ∂/∂p[%d] = %v, finite differences %v", k, c.shares, j, g[j], fd)
			}
		}
	}
}

// noisyLatents returns three classes' latents z_j = ±1 + 0.8·N(0, 1),
// for which p(class c | z) ∝ exp(3.125 z_c) (A = 2/0.8²), with a share
// flip of the labels redrawn uniformly (ε = flip), and shares 0.1.
func noisyLatents(seed uint64, flip float64) (z, rho *mat.Dense, truth []int) {
	rng := rand.New(rand.NewPCG(seed, 3))
	const n, k = 3000, 3
	z, rho = mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
	truth = make([]int, n)
	for i := 0; i < n; i++ {
		c := rng.IntN(k)
		for j := 0; j < k; j++ {
			m := -1.0
			if j == c {
				m = 1
			}
			z.Set(i, j, m+0.8*rng.NormFloat64())
			rho.Set(i, j, 0.1)
		}
		truth[i] = c
		if rng.Float64() < flip {
			truth[i] = rng.IntN(k)
		}
	}
	return z, rho, truth
}

// TestFitLabelNoise: on noisyLatents, from A = 1 and a small ε
// alone L-BFGS stops at a flat map with a small ε on these seeds (seed 1:
// A 1.6, ε 0.034); the fit must find the generating one: slope within
// 0.5 and ε within 0.04 of it (the flat optimum's ε is 0.066 away; with a
// slope per class ε comes out 0.13 on seed 3).
func TestFitLabelNoise(t *testing.T) {
	for _, tc := range []struct {
		seed uint64
		flip float64
	}{{1, 0.1}, {3, 0.1}, {5, 0.1}, {5, 0.3}} {
		z, rho, truth := noisyLatents(tc.seed, tc.flip)
		cal, err := Fit(z, rho, truth)
		if err != nil {
			t.Fatal(err)
		}
		if a := slopeCentre(cal); math.Abs(a-3.125) > 0.5 || math.Abs(cal.Eps-tc.flip) > 0.04 {
			t.Errorf("seed %d, flip %v: slope %.3f, ε = %.3f, want about 3.125 and %v (slopes %v)", tc.seed, tc.flip, a, cal.Eps, tc.flip, cal.Slopes)
		}
	}
}

// slopeCentre is a calibration's slope: A, or the geometric mean of its
// per-class Slopes (the weak prior on log A and on the offsets δ_k splits
// a common scale between them).
func slopeCentre(c *Calibration) float64 {
	if c.Slopes == nil {
		return c.A
	}
	var s float64
	for _, v := range c.Slopes {
		s += math.Log(v)
	}
	return math.Exp(s / float64(len(c.Slopes)))
}

// TestFitThreads: the two starts give the same fit, bit for
// bit, whether they run one after the other (thread budget 1) or side by
// side.
func TestFitThreads(t *testing.T) {
	old := la.Threads()
	defer la.SetThreads(old)
	z, rho, truth := noisyLatents(1, 0.1)
	var fits []*Calibration
	for _, th := range []int{1, 2} {
		la.SetThreads(th)
		c, err := Fit(z, rho, truth)
		if err != nil {
			t.Fatal(err)
		}
		fits = append(fits, c)
	}
	a, b := fits[0], fits[1]
	if a.A != b.A || a.Eps != b.Eps || !slices.Equal(a.B, b.B) {
		t.Errorf("thread budget 1: %+v, 2: %+v", a, b)
	}
}

// TestCalibrationSlopes: where the classes' latents are on different
// scales (noisyLatents' class j multiplied by s_j), the fit with a slope
// per class recovers 3.125/s_j and a lower NLL than one shared slope; a
// map with Slopes uses them in ProbTo and Decide. Fit fits them
// for every K >= 2.
func TestCalibrationSlopes(t *testing.T) {
	z, rho, truth := noisyLatents(3, 0.1)
	scale := []float64{1, 2.5, 0.4}
	n, _ := z.Dims()
	for i := range n {
		for j, s := range scale {
			z.Set(i, j, s*z.At(i, j))
		}
	}
	per, err := Fit(z, rho, truth)
	if err != nil {
		t.Fatal(err)
	}
	if len(per.Slopes) != 3 {
		t.Fatalf("slopes %v, want 3", per.Slopes)
	}
	shared := *per // the same map with the slopes' centre A for every class
	shared.Slopes = nil
	// The slopes undo the scales: slope·scale agrees across classes
	// (3.56, 3.48, 3.67 here, with ε 0.13) and is near 3.125.
	eff := make([]float64, 3)
	for j, s := range scale {
		eff[j] = per.Slopes[j] * s
	}
	if lo, hi := floats.Min(eff), floats.Max(eff); hi/lo > 1.1 || math.Abs(floats.Sum(eff)/3-3.125) > 0.6 {
		t.Errorf("slopes %v times scales %v = %v, want about 3.125 each", per.Slopes, scale, eff)
	}
	if a, b := per.MeanNLL(z, rho, truth), shared.MeanNLL(z, rho, truth); !(a < b-0.01) {
		t.Errorf("NLL with per-class slopes %.4f, shared %.4f", a, b)
	}
	// ProbTo and Decide use the slopes: scaling a class's latents by the
	// inverse of its slope's change leaves the probabilities as they were.
	p0 := mat.NewDense(n, 3, nil)
	per.ProbTo(p0, z, rho)
	alt := *per
	alt.Slopes = []float64{per.Slopes[0], 2 * per.Slopes[1], per.Slopes[2]}
	z2 := mat.DenseCopyOf(z)
	for i := range n {
		z2.Set(i, 1, z.At(i, 1)/2)
	}
	p1 := mat.NewDense(n, 3, nil)
	alt.ProbTo(p1, z2, rho)
	if !mat.EqualApprox(p0, p1, 1e-12) {
		t.Error("ProbTo does not use Slopes")
	}
	for i := range 50 {
		if per.Decide(z.RawRowView(i), rho.RawRowView(i)) != alt.Decide(z2.RawRowView(i), rho.RawRowView(i)) {
			t.Fatal("Decide does not use Slopes")
		}
	}

}

// TestFitBinary: FitBinary on labels ±1 is Fit on the one-column latents
// and shares with classes 1 (positive) and 0, bit for bit (the same
// path); bad lengths are an error.
func TestFitBinary(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	const n = 400
	z, rho, y := make([]float64, n), make([]float64, n), make([]float64, n)
	truth := make([]int, n)
	for i := range n {
		z[i], rho[i], y[i] = 1.5*rng.NormFloat64(), 0.3*rng.Float64(), -1
		if rng.Float64() < sigmoid(2*z[i]) {
			y[i], truth[i] = 1, 1
		}
	}
	got, err := FitBinary(z, rho, y)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Fit(mat.NewDense(n, 1, z), mat.NewDense(n, 1, rho), truth)
	if err != nil {
		t.Fatal(err)
	}
	if got.A != want.A || !slices.Equal(got.B, want.B) || got.Eps != want.Eps || got.Kappa != want.Kappa || !slices.Equal(got.Balance, want.Balance) {
		t.Errorf("FitBinary %+v, Fit %+v", got, want)
	}
	for _, c := range []struct{ z, rho, y []float64 }{
		{z[1:], rho, y}, {z, rho[1:], y}, {nil, nil, nil},
	} {
		if _, err := FitBinary(c.z, c.rho, c.y); err == nil {
			t.Errorf("no error for %d latents, %d shares, %d labels", len(c.z), len(c.rho), len(c.y))
		}
	}
}
