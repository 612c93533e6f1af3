package ep

import (
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// blobs returns n seeded 2-D points from two overlapping Gaussian blobs
// with labels ±1.
func blobs(n int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 2))
	x := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range y {
		y[i] = float64(2*(i%2) - 1)
		x.Set(i, 0, rng.NormFloat64()+0.8*y[i])
		x.Set(i, 1, rng.NormFloat64()-0.5*y[i])
	}
	return x, y
}

// TestGradientFiniteDifference compares GradientTo with central
// differences of log Z_EP in log θ_j (EP run to a tight tolerance), for
// every fixture kernel type.
func TestGradientFiniteDifference(t *testing.T) {
	x, y := blobs(30, 1)
	xs := mat.NewDense(30, 2, nil)
	xs.Scale(0.5, x)
	kernels := []kernel.Kernel{
		kernel.SE{Var: 2, Len2: 0.7, Jitter: 1e-3},
		kernel.SELin{SE: kernel.SE{Var: 1.5, Len2: 1.2, Jitter: 1e-2}, Lin: 0.4},
		kernel.Poly{Var: 1.2, Jitter: 1e-2, Degree: 3, Gamma: 0.8},
		kernel.SEARD{Var: 2, Len2: []float64{0.7, 2.1}, Jitter: 1e-3},
		kernel.SEARDBias{SEARD: kernel.SEARD{Var: 1.5, Len2: []float64{3, 0.4}, Jitter: 1e-2}, Bias: 0.6},
	}
	const h = 1e-4
	o := &Options{Tol: 1e-13, SiteTol: 1e-12, MaxSweeps: 1000}
	for _, k := range kernels {
		for _, s := range schedules {
			o.Schedule = s
			p, err := Infer(k, xs, y, nil, o)
			if err != nil {
				t.Fatal(err)
			}
			g := p.GradientTo(nil)
			th := k.Params()
			for j := range th {
				at := func(f float64) float64 {
					t2 := append([]float64(nil), th...)
					t2[j] *= f
					q, err := Infer(k.WithParams(t2), xs, y, &p.Sites, o)
					if err != nil {
						t.Fatal(err)
					}
					return q.LogZ
				}
				fd := (at(math.Exp(h)) - at(math.Exp(-h))) / (2 * h)
				if math.Abs(g[j]-fd) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("%s %v: d log Z/d log θ_%d = %.10g, finite difference %.10g", k.Name(), s, j, g[j], fd)
				}
			}
		}
	}
}

// naiveEP is an independent dense reference for InferCov: sequential EP
// in a fixed order with Σ = (K⁻¹ + S)⁻¹ and μ = Σ (K⁻¹ m + ν̃) formed by
// explicit inverses, and log Z_EP from Rasmussen & Williams eq. (3.65) with
// the prior mean.
func naiveEP(t *testing.T, K *mat.Dense, m, y []float64, sweeps int) (tau, nu []float64, logZ float64) {
	n := len(y)
	tau, nu = make([]float64, n), make([]float64, n)
	var Kinv mat.Dense
	if err := Kinv.Inverse(K); err != nil {
		t.Fatal(err)
	}
	Kim := mat.NewVecDense(n, nil)
	Kim.MulVec(&Kinv, mat.NewVecDense(n, m))
	post := func() (*mat.Dense, []float64) {
		P := mat.DenseCopyOf(&Kinv)
		for i := range tau {
			P.Set(i, i, P.At(i, i)+tau[i])
		}
		var S mat.Dense
		if err := S.Inverse(P); err != nil {
			t.Fatal(err)
		}
		rhs := mat.NewVecDense(n, nil)
		rhs.AddVec(Kim, mat.NewVecDense(n, nu))
		mu := mat.NewVecDense(n, nil)
		mu.MulVec(&S, rhs)
		return &S, mu.RawVector().Data
	}
	for s := 0; s < sweeps; s++ {
		for i := 0; i < n; i++ {
			S, mu := post()
			tc := 1/S.At(i, i) - tau[i]
			nc := mu[i]/S.At(i, i) - nu[i]
			_, tau[i], nu[i] = moments(y[i], nc/tc, 1/tc)
		}
	}
	S, mu := post()
	// R&W (3.65): log Z = Σ log Φ(y μ₋ᵢ/√(1+σ²₋ᵢ)) - ½ log|K+Σ̃| - ½ (μ̃-m)ᵀ(K+Σ̃)⁻¹(μ̃-m)
	//                     + ½ Σ log(σ²₋ᵢ+σ̃²ᵢ) + Σ (μ₋ᵢ-μ̃ᵢ)²/(2(σ²₋ᵢ+σ̃²ᵢ)).
	C := mat.DenseCopyOf(K)
	d := mat.NewVecDense(n, nil)
	for i := 0; i < n; i++ {
		C.Set(i, i, C.At(i, i)+1/tau[i])
		d.SetVec(i, nu[i]/tau[i]-m[i])
	}
	var ch mat.Cholesky
	if !ch.Factorize(mat.NewSymDense(n, C.RawMatrix().Data)) {
		t.Fatal("K + Σ̃ not PD")
	}
	sol := mat.NewVecDense(n, nil)
	if err := ch.SolveVecTo(sol, d); err != nil {
		t.Fatal(err)
	}
	logZ = -0.5*ch.LogDet() - 0.5*mat.Dot(d, sol)
	for i := 0; i < n; i++ {
		tc := 1/S.At(i, i) - tau[i]
		nc := mu[i]/S.At(i, i) - nu[i]
		mc, vc := nc/tc, 1/tc
		vs, ms := 1/tau[i], nu[i]/tau[i]
		logZ += LogPhi(y[i]*mc/math.Sqrt(1+vc)) + 0.5*math.Log(vc+vs) + (mc-ms)*(mc-ms)/(2*(vc+vs))
	}
	return tau, nu, logZ
}

func TestInferCovPriorMean(t *testing.T) {
	x, y := blobs(25, 3)
	k := kernel.SE{Var: 1.5, Len2: 0.6, Jitter: 1e-4}
	K := mat.NewDense(25, 25, nil)
	k.TrainTo(K, x)
	rng := rand.New(rand.NewPCG(4, 4))
	m := make([]float64, 25)
	for i := range m {
		m[i] = rng.NormFloat64()
	}
	tau, nu, logZ := naiveEP(t, K, m, y, 60)
	for _, s := range schedules {
		p, err := InferCov(K, m, y, nil, &Options{Schedule: s, Tol: 1e-13, SiteTol: 1e-12, MaxSweeps: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if p.Kernel != nil || p.X != nil {
			t.Error("InferCov posterior has a kernel")
		}
		if math.Abs(p.LogZ-logZ) > 1e-9 {
			t.Errorf("%v: log Z = %.15g, reference %.15g", s, p.LogZ, logZ)
		}
		if d, i := maxAbsDiff(p.Sites.Tau, tau); d > 1e-8 {
			t.Errorf("%v: tau[%d] diff %.3g", s, i, d)
		}
		if d, i := maxAbsDiff(p.Sites.Nu, nu); d > 1e-8 {
			t.Errorf("%v: nu[%d] diff %.3g", s, i, d)
		}
		// FromSitesCov rebuilds the same posterior without iterating.
		q, err := FromSitesCov(K, m, y, p.Sites)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(q.LogZ-p.LogZ) > 1e-12 || q.Sweeps != 0 {
			t.Errorf("%v: FromSitesCov log Z %v, want %v", s, q.LogZ, p.LogZ)
		}
		if d, i := maxAbsDiff(q.Mean, p.Mean); d > 1e-12 {
			t.Errorf("%v: FromSitesCov Mean[%d] diff %.3g", s, i, d)
		}
		// μ = K b + m.
		mu := mat.NewVecDense(25, nil)
		mu.MulVec(K, mat.NewVecDense(25, p.Alpha))
		for i := range m {
			if math.Abs(mu.AtVec(i)+m[i]-p.Mean[i]) > 1e-10 {
				t.Fatalf("%v: Mean[%d] = %v, K b + m = %v", s, i, p.Mean[i], mu.AtVec(i)+m[i])
			}
		}
	}
	// With zero mean, InferCov and Infer agree.
	p1, err1 := InferCov(K, nil, y, nil, nil)
	p2, err2 := Infer(k, x, y, nil, nil)
	if err1 != nil || err2 != nil || p1.LogZ != p2.LogZ {
		t.Errorf("InferCov(nil mean) %v, %v; Infer %v, %v", p1.LogZ, err1, p2.LogZ, err2)
	}
}

// TestFromSites rebuilds every fixture's posterior from its sites.
func TestFromSites(t *testing.T) {
	for _, f := range loadFixtures(t) {
		t.Run(f.Name, func(t *testing.T) {
			p, err := FromSites(f.kernelOf(t, f.Kernel.Theta), denseOf(f.X), f.Y, Sites{Tau: f.SiteTau, Nu: f.SiteNu})
			if err != nil {
				t.Fatal(err)
			}
			if p.Sweeps != 0 {
				t.Errorf("Sweeps = %d", p.Sweeps)
			}
			tol := tightTol
			tol.sites = 0
			compareFixture(t, f, p, tol, false)
		})
	}
}

func TestWarmStart(t *testing.T) {
	f := loadFixture(t, filepath.Join(fixtureDir, "se_usps_n300.json"))
	x := denseOf(f.X)
	k := f.kernelOf(t, f.Kernel.Theta)
	for _, s := range schedules {
		o := &Options{Schedule: s, Tol: 1e-10, SiteTol: 1e-9, MaxSweeps: 1000}
		cold, err := Infer(k, x, f.Y, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		th := k.Params()
		th[0] *= 1.05
		k2 := k.WithParams(th)
		c2, err := Infer(k2, x, f.Y, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		w2, err := Infer(k2, x, f.Y, &cold.Sites, o)
		if err != nil {
			t.Fatal(err)
		}
		if w2.Sweeps >= c2.Sweeps {
			t.Errorf("%v: warm start took %d sweeps, cold %d", s, w2.Sweeps, c2.Sweeps)
		}
		if math.Abs(w2.LogZ-c2.LogZ) > 1e-9 {
			t.Errorf("%v: warm log Z %v, cold %v", s, w2.LogZ, c2.LogZ)
		}
	}
}

func TestNotConverged(t *testing.T) {
	x, y := blobs(20, 5)
	k := kernel.SE{Var: 5, Len2: 0.5, Jitter: 1e-6}
	for _, s := range schedules {
		p, err := Infer(k, x, y, nil, &Options{Schedule: s, Tol: 1e-14, MaxSweeps: 2})
		var nc *NotConvergedError
		if !errors.As(err, &nc) {
			t.Fatalf("%v: err = %v, want *NotConvergedError", s, err)
		}
		if nc.Sweeps != 2 || nc.Post == nil || p != nc.Post || nc.Error() == "" || !(nc.LastChange > 0) {
			t.Errorf("%v: %+v", s, nc)
		}
	}
}

func TestBadInput(t *testing.T) {
	x, y := blobs(6, 6)
	k := kernel.SE{Var: 1, Len2: 1, Jitter: 1e-6}
	bad := append([]float64(nil), y...)
	bad[2] = 0
	if _, err := Infer(k, x, bad, nil, nil); err == nil {
		t.Error("label 0 accepted")
	}
	// An indefinite "covariance" makes B lose positive definiteness.
	K := mat.NewDense(6, 6, nil)
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			K.Set(i, j, 4)
		}
		K.Set(i, i, 1)
	}
	for _, s := range schedules {
		if _, err := InferCov(K, nil, y, nil, &Options{Schedule: s}); err == nil {
			t.Errorf("%v: indefinite K accepted", s)
		}
	}
	K.Set(0, 1, math.NaN())
	if _, err := InferCov(K, nil, y, nil, nil); err == nil {
		t.Error("NaN in K accepted")
	}
	if _, err := FromSites(k, x, y, Sites{Tau: []float64{-1, 0, 0, 0, 0, 0}, Nu: make([]float64, 6)}); err == nil {
		t.Error("negative site precision accepted")
	}
}

// TestPredict: PredictCrossTo equals PredictTo, does not modify kstar, and
// PredictTo is safe for concurrent use.
func TestPredict(t *testing.T) {
	x, y := blobs(40, 7)
	xs, _ := blobs(33, 8)
	k := kernel.SELin{SE: kernel.SE{Var: 2, Len2: 0.8, Jitter: 1e-4}, Lin: 0.2}
	p, err := Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	m1, v1, p1 := make([]float64, 33), make([]float64, 33), make([]float64, 33)
	p.PredictTo(m1, v1, p1, xs)
	ks := mat.NewDense(33, 40, nil)
	k.CrossTo(ks, xs, x)
	ksCopy := mat.DenseCopyOf(ks)
	kss := make([]float64, 33)
	k.DiagTo(kss, xs)
	m2, v2, p2 := make([]float64, 33), make([]float64, 33), make([]float64, 33)
	p.PredictCrossTo(m2, v2, p2, ks, kss)
	if !mat.Equal(ks, ksCopy) {
		t.Error("PredictCrossTo modified kstar")
	}
	for i := range m1 {
		if m1[i] != m2[i] || v1[i] != v2[i] || p1[i] != p2[i] {
			t.Fatalf("row %d: PredictTo %v %v %v, PredictCrossTo %v %v %v", i, m1[i], v1[i], p1[i], m2[i], v2[i], p2[i])
		}
		// Direct formula: v* = k** - k*ᵀ (K + S⁻¹)⁻¹ k* = k** - k*ᵀ S^½ B⁻¹ S^½ k*.
		if !(v1[i] > 0) || p1[i] < 0 || p1[i] > 1 {
			t.Fatalf("row %d: var %v prob %v", i, v1[i], p1[i])
		}
	}
	onlyProb := make([]float64, 33)
	p.PredictTo(nil, nil, onlyProb, xs)
	for i := range onlyProb {
		if onlyProb[i] != p1[i] {
			t.Fatal("prob alone differs")
		}
	}
	var wg sync.WaitGroup
	out := make([][]float64, 4)
	for g := range out {
		out[g] = make([]float64, 33)
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.PredictTo(nil, nil, out[g], xs)
		}()
	}
	wg.Wait()
	for g := range out {
		for i := range out[g] {
			if out[g][i] != p1[i] {
				t.Fatalf("concurrent prediction %d differs at %d", g, i)
			}
		}
	}
}

// TestEmpty: zero training points give the prior.
func TestEmpty(t *testing.T) {
	k := kernel.SE{Var: 2, Len2: 1, Jitter: 1e-6}
	p, err := Infer(k, mat.NewDense(1, 2, nil).Slice(0, 0, 0, 2).(*mat.Dense), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	xs, _ := blobs(3, 9)
	m, v := make([]float64, 3), make([]float64, 3)
	p.PredictTo(m, v, nil, xs)
	for i := range m {
		if m[i] != 0 || v[i] != 2 {
			t.Errorf("prior prediction %v %v", m[i], v[i])
		}
	}
}

// TestCovarianceReleased: posteriors returned by Infer, FromSites and a
// closed Iteration no longer hold the n×n prior covariance (a trained
// classifier keeps only the Cholesky factor), and they predict and
// differentiate exactly as the open iteration's posterior did.
func TestCovarianceReleased(t *testing.T) {
	x, y := blobs(40, 9)
	k := kernel.SE{Var: 2, Len2: 1, Jitter: 1e-6}
	p, err := Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := FromSites(k, x, y, p.Sites)
	if err != nil {
		t.Fatal(err)
	}
	it, err := NewIteration(k, x, y, &p.Sites, nil)
	if err != nil {
		t.Fatal(err)
	}
	open := it.Posterior()
	if open.k == nil {
		t.Fatal("open iteration has no covariance")
	}
	xs, _ := blobs(7, 10)
	wantM, wantV := make([]float64, 7), make([]float64, 7)
	open.PredictTo(wantM, wantV, nil, xs)
	wantG := open.GradientTo(nil)
	it.Close()
	for name, q := range map[string]*Posterior{"Infer": p, "FromSites": fs, "closed Iteration": open} {
		if q.k != nil {
			t.Errorf("%s: covariance kept", name)
		}
		m, v := make([]float64, 7), make([]float64, 7)
		q.PredictTo(m, v, nil, xs)
		g := q.GradientTo(nil)
		for i := range m {
			if math.Abs(m[i]-wantM[i]) > 1e-9 || math.Abs(v[i]-wantV[i]) > 1e-9 {
				t.Errorf("%s: prediction %d = (%v, %v), want (%v, %v)", name, i, m[i], v[i], wantM[i], wantV[i])
			}
		}
		for j := range g {
			if math.Abs(g[j]-wantG[j]) > 1e-8*math.Max(1, math.Abs(wantG[j])) {
				t.Errorf("%s: gradient %d = %v, want %v", name, j, g[j], wantG[j])
			}
		}
	}
}
