package calib

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestCalibrationKappa: with an asymmetric share κ of the unexplained
// labels, binary probabilities sum to one, stay within [εκ, 1 − ε(1−κ)]
// (Range) and reach its ends,
// increase with z, and Decide/DecideTo give the more probable class, also
// when no probability reaches 1/2 or every one exceeds it; MeanNLL is the
// mean of −log p of the true class; Kappa 0 is κ = 1/2 bit for bit.
func TestCalibrationKappa(t *testing.T) {
	z := mat.NewDense(9, 1, []float64{-40, -3, -1, -0.2, 0, 0.3, 1.5, 4, 40})
	rho := mat.NewDense(9, 1, []float64{0, 0.5, 0.1, 0.9, 1, 0.2, 0, 0.3, 0})
	truth := []int{0, 1, 0, 1, 1, 0, 1, 0, 1}
	for _, c := range []*Calibration{
		{A: 2, B: []float64{-0.5}, Eps: 0.2, Kappa: 0.3, Balance: []float64{0.2}},
		{A: 2, B: []float64{0.5}, Eps: 0.7, Kappa: 0.2, Balance: []float64{0.1}},  // ceiling 0.44: never positive
		{A: 2, B: []float64{-0.5}, Eps: 0.7, Kappa: 0.9, Balance: []float64{0.8}}, // floor 0.63: always positive
		{A: 1, B: []float64{0.1}, Eps: 0.05, Kappa: 0.6},
	} {
		p := mat.NewDense(9, 2, nil)
		c.ProbTo(p, z, rho)
		dec := make([]int, 9)
		c.DecideTo(dec, z, rho)
		lo, hi := c.Range()
		if lo != c.Eps*c.Kappa || hi != 1-c.Eps*(1-c.Kappa) {
			t.Errorf("%+v: Range [%v, %v]", c, lo, hi)
		}
		// z = ∓40 saturate the sigmoid: the probabilities reach the range's ends.
		if math.Abs(p.At(0, 1)-lo) > 1e-12 || math.Abs(p.At(8, 1)-hi) > 1e-12 {
			t.Errorf("%+v: p(+1) at z = -40 and 40: %v, %v; range [%v, %v]", c, p.At(0, 1), p.At(8, 1), lo, hi)
		}
		nll := 0.0
		for i := range 9 {
			p0, p1 := p.At(i, 0), p.At(i, 1)
			if math.Abs(p0+p1-1) > 1e-15 || p1 < lo-1e-15 || p1 > hi+1e-15 {
				t.Errorf("%+v: row %d: p = [%v %v], want a sum of 1 within [%v, %v]", c, i, p0, p1, lo, hi)
			}
			want := 0
			if p1 > 0.5 {
				want = 1
			}
			if d := c.Decide(z.RawRowView(i), rho.RawRowView(i)); d != want || dec[i] != want {
				t.Errorf("%+v: row %d: p(+1) = %v, decided %d (DecideTo %d)", c, i, p1, d, dec[i])
			}
			nll -= math.Log(p.At(i, truth[i]))
			if i > 0 && rho.At(i, 0) == rho.At(i-1, 0) && !(p1 > p.At(i-1, 1)) {
				t.Errorf("%+v: p(+1) does not increase from row %d to %d", c, i-1, i)
			}
		}
		if got := c.MeanNLL(z, rho, truth); math.Abs(got-nll/9) > 1e-12 {
			t.Errorf("%+v: MeanNLL %v, want %v", c, got, nll/9)
		}
	}
	half := &Calibration{A: 2, B: []float64{-0.5}, Eps: 0.2, Kappa: 0.5, Balance: []float64{0.2}}
	zero := *half
	zero.Kappa = 0
	a, b := mat.NewDense(9, 2, nil), mat.NewDense(9, 2, nil)
	half.ProbTo(a, z, rho)
	zero.ProbTo(b, z, rho)
	if !mat.Equal(a, b) || half.MeanNLL(z, rho, truth) != zero.MeanNLL(z, rho, truth) {
		t.Error("Kappa 0 differs from 1/2")
	}
}

// tailLatents returns binary held-out latents like those of fPASS-GP at
// M = 200 on IJCNN (docs/method.md): P(y = 1 | z) rises with
// z up to about 0.5 and then falls in the upper tail, where 6% of the
// points hold z in [1.3, 2] and only 15% of them are positive; 10%
// positives in all.
func tailLatents(seed uint64) (z *mat.Dense, truth []int) {
	rng := rand.New(rand.NewPCG(seed, 11))
	const n = 20000
	z, truth = mat.NewDense(n, 1, nil), make([]int, n)
	for i := range n {
		var v, p float64
		if rng.Float64() < 0.06 {
			v, p = 1.3+0.7*rng.Float64(), 0.15
		} else {
			v = 0.5 * rng.NormFloat64()
			p = 0.5 * sigmoid(5*v-1.5)
		}
		z.Set(i, 0, v)
		if rng.Float64() < p {
			truth[i] = 1
		}
	}
	return z, truth
}

// TestFitTail: on latents whose upper tail is mostly negative,
// the symmetric mixture (κ = 1/2) has to let its sigmoid reach 1 − ε/2 and
// calls that tail positive, erring more than the majority class; the
// fitted κ puts the ceiling below 1/2 instead, and the fit's decisions on
// the latents it was fitted to err no more than the majority class does.
func TestFitTail(t *testing.T) {
	z, truth := tailLatents(1)
	n := len(truth)
	pos := 0
	for _, v := range truth {
		pos += v
	}
	majority := float64(min(pos, n-pos)) / float64(n)
	c, err := Fit(z, nil, truth)
	if err != nil {
		t.Fatal(err)
	}
	errRate := func(c *Calibration) float64 {
		dec := make([]int, n)
		c.DecideTo(dec, z, nil)
		return missRate(n, func(i int) bool { return dec[i] != truth[i] })
	}
	if e := errRate(c); e > majority {
		t.Errorf("fitted %+v errs %v, above the majority rate %v", c, e, majority)
	}
	if !(c.Kappa < 0.5) || !(1-c.Eps*(1-c.Kappa) < 0.6) {
		t.Errorf("fitted %+v: want κ below 1/2 and a ceiling near or below 1/2", c)
	}
	// The symmetric mixture, fitted with κ held at 1/2.
	obj := objective(z, nil, truth, nil)
	sym := func(p, g []float64) float64 {
		q := append(append([]float64(nil), p...), 0)
		var gq []float64
		if g != nil {
			gq = make([]float64, len(q))
		}
		f := obj(q, gq)
		copy(g, gq)
		return f
	}
	best := math.Inf(1)
	var bc *Calibration
	for _, la := range []float64{-1, 0, 1, 2} {
		for _, b := range []float64{-4, -2, 0} {
			for _, le := range []float64{-6, -3, -1} {
				if f := sym([]float64{la, b, le}, nil); f < best {
					best, bc = f, &Calibration{A: math.Exp(la), B: []float64{b}, Eps: sigmoid(le)}
				}
			}
		}
	}
	if full := obj([]float64{math.Log(c.A), c.B[0], logit(c.Eps), logit(c.Kappa)}, nil); !(full < best) {
		t.Errorf("fitted objective %v not below the symmetric grid's best %v", full, best)
	}
	if e := errRate(bc); !(e > majority) {
		t.Errorf("symmetric grid's best %+v errs %v, not above the majority rate %v: the data do not show the failure", bc, e, majority)
	}
}
