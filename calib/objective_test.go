package calib

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// objectiveCase returns latents, shares (with shares) and classes of n
// points for K latents, the latents scaled by zScale.
func objectiveCase(seed uint64, n, k int, zScale float64, shares bool) (z, rho *mat.Dense, truth []int, balance []float64) {
	rng := rand.New(rand.NewPCG(seed, 17))
	z = mat.NewDense(n, k, nil)
	truth = make([]int, n)
	for i := range n {
		for j := range k {
			z.Set(i, j, zScale*rng.NormFloat64())
		}
		truth[i] = rng.IntN(max(k, 2))
	}
	if shares {
		rho = mat.NewDense(n, k, nil)
		for i := range n {
			for j := range k {
				rho.Set(i, j, rng.Float64())
			}
		}
		balance = classShares(truth, k)
	}
	return z, rho, truth, balance
}

// TestObjectiveReference: Fit's objective, which forms each point's
// likelihood directly, against Calibration.MeanNLL, which works in the log
// domain, plus the prior: binary and multi-class, with and without
// shares, at ordinary parameters and where the likelihoods underflow (ε
// below 1e-280 and latents of hundreds: the objective's log-domain
// fallback).
func TestObjectiveReference(t *testing.T) {
	for _, c := range []struct {
		name   string
		k      int
		zScale float64
		logitE float64
	}{
		{"binary", 1, 2, -1.5}, {"4 classes", 4, 2, -1.5},
		{"binary, underflow", 1, 300, -660}, {"4 classes, underflow", 4, 300, -660},
	} {
		for _, shares := range []bool{false, true} {
			z, rho, truth, balance := objectiveCase(3, 200, c.k, c.zScale, shares)
			o := objective(z, rho, truth, balance)
			st := newObjectiveState(z, rho, truth, balance)
			rng := rand.New(rand.NewPCG(5, 6))
			p := make([]float64, calibrationParams(c.k)+slopeParams(c.k))
			for j := range p {
				p[j] = 0.5 * rng.NormFloat64()
			}
			p[c.k+1] = c.logitE
			q := st.params(p)
			cal := *q.c
			cal.Eps, cal.Kappa = q.eps, q.kappa
			want := cal.MeanNLL(z, rho, truth) + st.ridge(&q, p, nil, len(truth))
			got := o(p, nil)
			if math.IsNaN(got) || math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("%s, shares %v: objective %.17g, log-domain reference %.17g", c.name, shares, got, want)
			}
		}
	}
}

// BenchmarkObjective times one evaluation of Fit's objective with its
// gradient on 40,000 points (also reported per point).
func BenchmarkObjective(b *testing.B) {
	for _, k := range []int{1, 7} {
		z, rho, truth, balance := objectiveCase(1, 40000, k, 2, true)
		o := objective(z, rho, truth, balance)
		p := make([]float64, calibrationParams(k)+slopeParams(k))
		p[k+1] = -3
		g := make([]float64, len(p))
		b.Run(map[int]string{1: "binary", 7: "7 classes"}[k], func(b *testing.B) {
			for b.Loop() {
				o(p, g)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/40000, "ns/point")
		})
	}
}
