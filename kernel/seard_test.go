package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randLen2(d int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	l := make([]float64, d)
	for i := range l {
		l[i] = math.Exp(rng.NormFloat64()) * float64(d) / 4
	}
	return l
}

func ardKernels(d int) []Kernel {
	a := SEARD{Var: 1.3, Len2: randLen2(d, uint64(d)), Jitter: 1e-3}
	return []Kernel{a, SEARDBias{SEARD: a, Bias: 0.4}}
}

// ardDirect evaluates the ARD covariance term by term (no jitter).
func ardDirect(k Kernel, a, b []float64) float64 {
	var ard SEARD
	var bias float64
	switch k := k.(type) {
	case SEARD:
		ard = k
	case SEARDBias:
		ard, bias = k.SEARD, k.Bias
	}
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i]) / ard.Len2[i]
	}
	return ard.Var*math.Exp(-s/2) + bias
}

// TestSEARDGram compares CrossTo, TrainTo and DiagTo with the term-by-term
// reference, for d on both sides of la's direct/gemm crossover.
func TestSEARDGram(t *testing.T) {
	const tol = 1e-12
	for _, sz := range [][3]int{{1, 1, 1}, {7, 5, 3}, {17, 9, 22}, {4, 6, 65}, {12, 11, 200}} {
		n1, n2, d := sz[0], sz[1], sz[2]
		x1, x2 := randDense(n1, d, 1), randDense(n2, d, 2)
		for _, k := range ardKernels(d) {
			t.Run(fmt.Sprintf("%s/%dx%dx%d", k.Name(), n1, n2, d), func(t *testing.T) {
				c := mat.NewDense(n1, n2, nil)
				k.CrossTo(c, x1, x2)
				tr := mat.NewDense(n1, n1, nil)
				k.TrainTo(tr, x1)
				diag := make([]float64, n1)
				k.DiagTo(diag, x1)
				for i := 0; i < n1; i++ {
					for j := 0; j < n2; j++ {
						w := ardDirect(k, x1.RawRowView(i), x2.RawRowView(j))
						if math.Abs(c.At(i, j)-w) > tol*math.Max(1, math.Abs(w)) {
							t.Fatalf("CrossTo[%d,%d] = %v, want %v", i, j, c.At(i, j), w)
						}
					}
					for j := 0; j < n1; j++ {
						w := ardDirect(k, x1.RawRowView(i), x1.RawRowView(j))
						if i == j {
							if math.Abs(diag[i]-w) > tol*w {
								t.Fatalf("DiagTo[%d] = %v, want %v", i, diag[i], w)
							}
							w += k.DiagJitter()
						}
						if math.Abs(tr.At(i, j)-w) > tol*math.Max(1, math.Abs(w)) {
							t.Fatalf("TrainTo[%d,%d] = %v, want %v", i, j, tr.At(i, j), w)
						}
					}
				}
			})
		}
	}
}

// TestSEARDEqualsSE: with every Len2_k = t2, SEARD is SE and SEARDBias is
// SEBias. The two compute the distance differently (x/√t2 with c = ½
// against x with c = 1/(2 t2)), so they agree to rounding: 1e-13 relative
// for the Gram blocks; the length-scale contractions summed over k equal
// SE's t2 contraction to 1e-11 relative.
func TestSEARDEqualsSE(t *testing.T) {
	for _, d := range []int{1, 5, 40} {
		se := SE{Var: 1.7, Len2: 0.9 * float64(d), Jitter: 1e-3}
		pairs := [][2]Kernel{
			{NewSEARD(d, se.Var, se.Len2, se.Jitter), se},
			{SEARDBias{SEARD: NewSEARD(d, se.Var, se.Len2, se.Jitter), Bias: 0.3}, SEBias{SE: se, Bias: 0.3}},
		}
		x1, x2 := randDense(13, d, 3), randDense(8, d, 4)
		w := randDense(13, 13, 5)
		ws := mat.NewDense(13, 13, nil)
		ws.Add(w, w.T())
		for _, p := range pairs {
			a, b := p[0], p[1]
			ca, cb := mat.NewDense(13, 8, nil), mat.NewDense(13, 8, nil)
			a.CrossTo(ca, x1, x2)
			b.CrossTo(cb, x1, x2)
			ta, tb := mat.NewDense(13, 13, nil), mat.NewDense(13, 13, nil)
			a.TrainTo(ta, x1)
			b.TrainTo(tb, x1)
			for _, m := range [][2]*mat.Dense{{ca, cb}, {ta, tb}} {
				ra, rb := m[0].RawMatrix().Data, m[1].RawMatrix().Data
				for i := range ra {
					if math.Abs(ra[i]-rb[i]) > 1e-13*math.Abs(rb[i]) {
						t.Fatalf("%s d=%d: %v, %s %v", a.Name(), d, ra[i], b.Name(), rb[i])
					}
				}
			}
			ga := make([]float64, len(a.Params()))
			gb := make([]float64, len(b.Params()))
			a.GradTraceTo(ga, ws, x1)
			b.GradTraceTo(gb, ws, x1)
			var sum float64
			for _, v := range ga[1 : 1+d] {
				sum += v
			}
			want := []float64{gb[0], gb[1], gb[2]}
			got := []float64{ga[0], sum, ga[d+1]}
			if len(gb) == 4 {
				want = append(want, gb[3])
				got = append(got, ga[d+2])
			}
			for j := range want {
				if math.Abs(got[j]-want[j]) > 1e-11*math.Max(1, math.Abs(want[j])) {
					t.Errorf("%s d=%d: contraction %d = %v, SE %v", a.Name(), d, j, got[j], want[j])
				}
			}
		}
	}
}

// TestSEARDGradTo compares ∂K/∂log θ_j with central differences.
func TestSEARDGradTo(t *testing.T) {
	const h = 1e-5
	const n = 9
	x := randDense(n, 4, 3)
	for _, k := range ardKernels(4) {
		for j := range k.Params() {
			g := mat.NewDense(n, n, nil)
			k.GradTo(g, x, j)
			kp, km := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
			scaledParams(k, j, math.Exp(h)).TrainTo(kp, x)
			scaledParams(k, j, math.Exp(-h)).TrainTo(km, x)
			for a := 0; a < n; a++ {
				for b := 0; b < n; b++ {
					fd := (kp.At(a, b) - km.At(a, b)) / (2 * h)
					if d := math.Abs(g.At(a, b) - fd); d > 1e-8*math.Max(1, math.Abs(fd)) {
						t.Fatalf("%s: GradTo(%d)[%d,%d] = %v, finite difference %v", k.Name(), j, a, b, g.At(a, b), fd)
					}
				}
			}
		}
	}
}

// TestSEARDGradTraceTo checks the O(n²d) contraction against Σ W∘GradTo,
// and against a finite difference of Σ W∘K.
func TestSEARDGradTraceTo(t *testing.T) {
	for _, sz := range [][2]int{{1, 3}, {6, 5}, {13, 30}, {20, 200}} {
		n, d := sz[0], sz[1]
		x := randDense(n, d, 4)
		w := randDense(n, n, 5)
		ws := mat.NewDense(n, n, nil)
		ws.Add(w, w.T())
		for _, k := range ardKernels(d) {
			np := len(k.Params())
			got := make([]float64, np)
			k.GradTraceTo(got, ws, x)
			g := mat.NewDense(n, n, nil)
			for j := 0; j < np; j++ {
				k.GradTo(g, x, j)
				want := dotElem(ws, g)
				if math.Abs(got[j]-want) > 1e-11*math.Max(1, math.Abs(want)) {
					t.Errorf("%s n=%d d=%d: GradTraceTo[%d] = %v, want %v", k.Name(), n, d, j, got[j], want)
				}
				if j%17 != 1 { // finite differences on a sample of components
					continue
				}
				const h = 1e-5
				kp, km := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
				scaledParams(k, j, math.Exp(h)).TrainTo(kp, x)
				scaledParams(k, j, math.Exp(-h)).TrainTo(km, x)
				fd := (dotElem(ws, kp) - dotElem(ws, km)) / (2 * h)
				if math.Abs(got[j]-fd) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("%s n=%d d=%d: GradTraceTo[%d] = %v, finite difference %v", k.Name(), n, d, j, got[j], fd)
				}
			}
		}
	}
}

func TestSEARDNew(t *testing.T) {
	for _, name := range []string{"seard", "ARD", "seard+bias", "ard+bias"} {
		bias := len(name) > 5
		theta := []float64{2, 0.5, 3, 1e-4}
		if bias {
			theta = append(theta, 0.7)
		}
		k, err := New(name, theta, 0, 0)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		if !slices.Equal(k.Params(), theta) || len(k.ParamNames()) != len(theta) {
			t.Errorf("New(%q, %v): params %v names %v", name, theta, k.Params(), k.ParamNames())
		}
		k2, err := New(k.Name(), k.Params(), 0, 0)
		if err != nil || !slices.Equal(k2.Params(), theta) || k2.Name() != k.Name() {
			t.Errorf("New(Name(), Params()) = %v, %v", k2, err)
		}
		p := k.Params()
		p[1] = 42
		if k.Params()[1] == 42 {
			t.Errorf("%s: Params is not a copy", name)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: WithParams with a wrong length did not panic", name)
				}
			}()
			k.WithParams([]float64{1, 2, 3, 4, 5, 6, 7})
		}()
	}
	k := NewSEARD(3, 1, 1, 1e-6)
	th := k.Params()
	k2 := k.WithParams(th).(SEARD)
	th[1] = 5
	if k2.Len2[0] != 1 {
		t.Error("WithParams shares the caller's slice")
	}
	for _, c := range []struct {
		name  string
		theta []float64
	}{
		{"seard", nil},
		{"seard", []float64{1, 1}},
		{"seard+bias", []float64{1, 1, 1}},
		{"seard", []float64{1, 0, 1}},
		{"seard", []float64{1, math.NaN(), 1}},
	} {
		if _, err := New(c.name, c.theta, 0, 0); err == nil {
			t.Errorf("New(%q, %v): no error", c.name, c.theta)
		}
	}
}
