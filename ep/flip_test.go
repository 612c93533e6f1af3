package ep

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// tilted integrates p(y|f) N(f; m, v) and its first two moments over f by
// composite Simpson's rule on m ± 14√v (40,000 intervals).
func tilted(y, m, v, eps float64) (z, mean, variance float64) {
	const n = 40000
	sd := math.Sqrt(v)
	a, b := m-14*sd, m+14*sd
	h := (b - a) / n
	var s0, s1, s2 float64
	for i := 0; i <= n; i++ {
		f := a + float64(i)*h
		w := 2.0
		switch {
		case i == 0 || i == n:
			w = 1
		case i%2 == 1:
			w = 4
		}
		g := w * (eps + (1-2*eps)*Phi(y*f)) * math.Exp(-(f-m)*(f-m)/(2*v)) / math.Sqrt(2*math.Pi*v)
		s0 += g
		s1 += g * f
		s2 += g * f * f
	}
	s0, s1, s2 = s0*h/3, s1*h/3, s2*h/3
	mean = s1 / s0
	return s0, mean, s2/s0 - mean*mean
}

// TestFlipMoments checks log Ẑ and the tilted mean m + v ∂log Ẑ/∂m and
// variance v + v² ∂²log Ẑ/∂m² against numerical integration, 1e-8
// relative (absolute for the log and the mean), on both sides of the
// decision, far on the wrong side included.
func TestFlipMoments(t *testing.T) {
	for _, eps := range []float64{1e-6, 0.01, 0.05, 0.2, 0.45} {
		for _, y := range []float64{-1, 1} {
			for _, c := range [][2]float64{{0, 1}, {0.5, 0.1}, {-2, 3}, {4, 0.5}, {-6, 0.3}, {-8, 20}, {12, 2}, {-3, 1e-4}} {
				m, v := c[0], c[1]
				lZ, d1, d2 := flipMoments(y, m, v, eps)
				z, mean, variance := tilted(y, m, v, eps)
				gm, gv := m+v*d1, v+v*v*d2
				if math.Abs(lZ-math.Log(z)) > 1e-8 || math.Abs(gm-mean) > 1e-8*math.Max(1, math.Abs(mean)) || math.Abs(gv-variance) > 1e-8*math.Max(v, 1e-3) {
					t.Errorf("eps %v y %v m %v v %v: log Z %.12g mean %.12g var %.12g; quadrature %.12g %.12g %.12g",
						eps, y, m, v, lZ, gm, gv, math.Log(z), mean, variance)
				}
				p := &Posterior{Flip: eps}
				if got := p.logLik(y * m / math.Sqrt(1+v)); got != lZ {
					t.Errorf("logLik %v, flipMoments %v", got, lZ)
				}
			}
		}
	}
	// Far in the tails: finite, log Ẑ → log ε, no precision.
	for _, m := range []float64{-40, -1e3, -1e8} {
		lZ, d1, d2 := flipMoments(1, m, 1, 0.05)
		if math.Abs(lZ-math.Log(0.05)) > 1e-12 || d1 < 0 || d1 > 1e-12 || math.IsNaN(d2) {
			t.Errorf("m %v: %v %v %v", m, lZ, d1, d2)
		}
	}
}

// TestFlipZeroIdentical: Flip = 0 runs the probit code, bit for bit.
func TestFlipZeroIdentical(t *testing.T) {
	x, y := blobs(40, 3)
	k := kernel.SE{Var: 2, Len2: 0.7, Jitter: 1e-3}
	for _, s := range schedules {
		a, err := Infer(k, x, y, nil, &Options{Schedule: s})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Infer(k, x, y, nil, &Options{Schedule: s, Flip: 0})
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(a.LogZ) != math.Float64bits(b.LogZ) {
			t.Fatalf("%v: log Z %v vs %v", s, a.LogZ, b.LogZ)
		}
		for i := range a.Sites.Tau {
			if math.Float64bits(a.Sites.Tau[i]) != math.Float64bits(b.Sites.Tau[i]) || math.Float64bits(a.Sites.Nu[i]) != math.Float64bits(b.Sites.Nu[i]) {
				t.Fatalf("%v: site %d differs", s, i)
			}
		}
	}
}

// TestFlipEP: with the robust likelihood EP converges and GradientTo
// matches central differences of log Z_EP where no site is in the
// log-convex region (there the site is clipped to zero precision and the
// fixed-point gradient is only approximate, as GPML infEP's is); and a
// mislabelled point on the wrong side gets a weaker site than under the
// probit likelihood.
func TestFlipEP(t *testing.T) {
	x, y := blobs(40, 5)
	k := kernel.SE{Var: 4, Len2: 1.5, Jitter: 1e-3}
	const eps = 0.01
	o := &Options{Tol: 1e-13, SiteTol: 1e-12, MaxSweeps: 2000, Flip: eps}
	for _, s := range schedules {
		o.Schedule = s
		p, err := Infer(k, x, y, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		if p.Flip != eps {
			t.Fatalf("Posterior.Flip = %v", p.Flip)
		}
		mc, vc := make([]float64, 40), make([]float64, 40)
		p.CavityTo(mc, vc)
		for i := range mc {
			if _, _, d2 := flipMoments(y[i], mc[i], vc[i], eps); !(d2 < 0) {
				t.Fatalf("site %d is in the log-convex region: the gradient check does not apply", i)
			}
		}
		g := p.GradientTo(nil)
		th := k.Params()
		const h = 1e-4
		for j := range th {
			at := func(f float64) float64 {
				t2 := append([]float64(nil), th...)
				t2[j] *= f
				q, err := Infer(k.WithParams(t2), x, y, &p.Sites, o)
				if err != nil {
					t.Fatal(err)
				}
				return q.LogZ
			}
			fd := (at(math.Exp(h)) - at(math.Exp(-h))) / (2 * h)
			if math.Abs(g[j]-fd) > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Errorf("%v: d log Z/d log θ_%d = %.10g, finite difference %.10g", s, j, g[j], fd)
			}
		}
	}

	// Mislabel the point deepest in the +1 blob.
	best, bi := math.Inf(-1), 0
	for i := range y {
		if s := x.At(i, 0) - x.At(i, 1); y[i] == 1 && s > best {
			best, bi = s, i
		}
	}
	y[bi] = -1
	for _, s := range schedules {
		p, err := Infer(k, x, y, nil, &Options{Schedule: s, Tol: 1e-10, MaxSweeps: 1000, Flip: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		pr, err := Infer(k, x, y, nil, &Options{Schedule: s, Tol: 1e-10, MaxSweeps: 1000})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: mislabelled site τ̃ = %.3g ν̃ = %.3g (probit %.3g %.3g); log Z %.4f (probit %.4f)", s, p.Sites.Tau[bi], p.Sites.Nu[bi], pr.Sites.Tau[bi], pr.Sites.Nu[bi], p.LogZ, pr.LogZ)
		if !(p.Sites.Tau[bi] < 0.5*pr.Sites.Tau[bi]) || !(math.Abs(p.Sites.Nu[bi]) < 0.8*math.Abs(pr.Sites.Nu[bi])) {
			t.Errorf("%v: mislabelled site τ̃ = %v ν̃ = %v, probit %v %v: not weaker", s, p.Sites.Tau[bi], p.Sites.Nu[bi], pr.Sites.Tau[bi], pr.Sites.Nu[bi])
		}
	}
	for _, f := range []float64{-0.1, 0.5, math.NaN(), math.Inf(1)} {
		if (&Options{Flip: f}).Validate() == nil {
			t.Errorf("Flip %v accepted", f)
		}
	}
}

// TestMatchSite: at EP's fixed point every site is the one MatchSite gives
// its label for its cavity, under the probit likelihood and the flip one;
// with a single point the cavity is the prior, so that site is MatchSite's
// for the prior.
func TestMatchSite(t *testing.T) {
	x, y := blobs(40, 7)
	k := kernel.SE{Var: 4, Len2: 1.5, Jitter: 1e-3}
	for _, eps := range []float64{0, 0.05} {
		o := &Options{Tol: 1e-13, SiteTol: 1e-12, MaxSweeps: 2000, Flip: eps}
		p, err := Infer(k, x, y, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		mc, vc := make([]float64, 40), make([]float64, 40)
		p.CavityTo(mc, vc)
		for i := range mc {
			tau, nu := MatchSite(y[i], mc[i], vc[i], eps)
			if math.Abs(tau-p.Sites.Tau[i]) > 1e-8*math.Max(1, tau) || math.Abs(nu-p.Sites.Nu[i]) > 1e-8*math.Max(1, math.Abs(nu)) {
				t.Errorf("flip %v, site %d: EP (%.10g, %.10g), MatchSite (%.10g, %.10g)", eps, i, p.Sites.Tau[i], p.Sites.Nu[i], tau, nu)
			}
		}

		const m0, v = 0.7, 2.5
		one, err := InferCov(mat.NewDense(1, 1, []float64{v}), []float64{m0}, []float64{-1}, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		tau, nu := MatchSite(-1, m0, v, eps)
		if math.Abs(tau-one.Sites.Tau[0]) > 1e-10 || math.Abs(nu-one.Sites.Nu[0]) > 1e-10 {
			t.Errorf("flip %v, one point: EP (%.12g, %.12g), MatchSite of the prior (%.12g, %.12g)", eps, one.Sites.Tau[0], one.Sites.Nu[0], tau, nu)
		}
	}
}
