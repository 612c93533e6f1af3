package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randDense(r, c int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Set(i, j, rng.NormFloat64()*0.7)
		}
	}
	return m
}

// direct evaluates k(a, b) from SPEC.md §1 without jitter.
func direct(k Kernel, a, b []float64) float64 {
	var d2, dot float64
	for i := range a {
		d2 += (a[i] - b[i]) * (a[i] - b[i])
		dot += a[i] * b[i]
	}
	switch k := k.(type) {
	case SE:
		return k.Var * math.Exp(-d2/(2*k.Len2))
	case SELin:
		return k.Var*math.Exp(-d2/(2*k.Len2)) + k.Lin*dot
	case SEBias:
		return k.Var*math.Exp(-d2/(2*k.Len2)) + k.Bias
	case Poly:
		g := k.Gamma
		if g == 0 {
			g = 1 / float64(len(a))
		}
		return k.Var * math.Pow(g*dot+1, float64(k.Degree))
	}
	panic("unknown kernel")
}

var testKernels = []Kernel{
	SE{Var: 1.7, Len2: 0.8, Jitter: 1e-3},
	SELin{SE: SE{Var: 0.6, Len2: 2.5, Jitter: 1e-2}, Lin: 0.3},
	SEBias{SE: SE{Var: 0.6, Len2: 2.5, Jitter: 1e-2}, Bias: 0.4},
	Poly{Var: 1.3, Jitter: 1e-3, Degree: 3},             // Gamma 0: 1/d
	Poly{Var: 0.9, Jitter: 1e-4, Degree: 9, Gamma: 0.1}, // explicit scale
	Poly{Var: 1, Jitter: 1e-4, Degree: 1, Gamma: 1},
}

func name(k Kernel) string { return fmt.Sprintf("%s%v", k.Name(), k.Params()) }

func TestCrossTrainDiag(t *testing.T) {
	const tol = 1e-12
	for _, k := range testKernels {
		for _, sz := range [][3]int{{1, 1, 1}, {7, 5, 3}, {17, 9, 22}, {4, 6, 65}} {
			n1, n2, d := sz[0], sz[1], sz[2]
			x1, x2 := randDense(n1, d, 1), randDense(n2, d, 2)
			t.Run(fmt.Sprintf("%s/%dx%dx%d", name(k), n1, n2, d), func(t *testing.T) {
				c := mat.NewDense(n1, n2, nil)
				k.CrossTo(c, x1, x2)
				for i := 0; i < n1; i++ {
					for j := 0; j < n2; j++ {
						w := direct(k, x1.RawRowView(i), x2.RawRowView(j))
						if math.Abs(c.At(i, j)-w) > tol*math.Max(1, math.Abs(w)) {
							t.Fatalf("CrossTo[%d,%d] = %v, want %v", i, j, c.At(i, j), w)
						}
					}
				}
				tr := mat.NewDense(n1, n1, nil)
				k.TrainTo(tr, x1)
				diag := make([]float64, n1)
				k.DiagTo(diag, x1)
				for i := 0; i < n1; i++ {
					for j := 0; j < n1; j++ {
						w := direct(k, x1.RawRowView(i), x1.RawRowView(j))
						if i == j {
							if math.Abs(diag[i]-w) > tol*math.Max(1, w) {
								t.Fatalf("DiagTo[%d] = %v, want %v (no jitter)", i, diag[i], w)
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

// TestDuplicateRows: the jitter goes to the same index, not the same value
// (fixtures/gpml README, se_stress_dup_n60).
func TestDuplicateRows(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 1, 2, 0, 1})
	for _, k := range testKernels {
		tr := mat.NewDense(3, 3, nil)
		k.TrainTo(tr, x)
		if tr.At(0, 1) != direct(k, x.RawRowView(0), x.RawRowView(1)) {
			t.Errorf("%s: duplicate rows got jitter off the diagonal", name(k))
		}
		if math.Abs(tr.At(0, 0)-tr.At(0, 1)-k.DiagJitter()) > 1e-12 {
			t.Errorf("%s: diagonal - off-diagonal = %v, want jitter %v", name(k), tr.At(0, 0)-tr.At(0, 1), k.DiagJitter())
		}
	}
}

func scaledParams(k Kernel, j int, f float64) Kernel {
	th := k.Params()
	th[j] *= f
	return k.WithParams(th)
}

// TestGradTo compares ∂K/∂log θ_j with central differences in log θ_j.
func TestGradTo(t *testing.T) {
	const h = 1e-5
	x := randDense(9, 4, 3)
	for _, k := range testKernels {
		np := len(k.Params())
		for j := 0; j < np; j++ {
			g := mat.NewDense(9, 9, nil)
			k.GradTo(g, x, j)
			kp, km := mat.NewDense(9, 9, nil), mat.NewDense(9, 9, nil)
			scaledParams(k, j, math.Exp(h)).TrainTo(kp, x)
			scaledParams(k, j, math.Exp(-h)).TrainTo(km, x)
			for a := 0; a < 9; a++ {
				for b := 0; b < 9; b++ {
					fd := (kp.At(a, b) - km.At(a, b)) / (2 * h)
					if d := math.Abs(g.At(a, b) - fd); d > 1e-8*math.Max(1, math.Abs(fd)) {
						t.Fatalf("%s: GradTo(%d)[%d,%d] = %v, finite difference %v", name(k), j, a, b, g.At(a, b), fd)
					}
				}
			}
		}
	}
}

// TestGradTraceTo checks GradTraceTo against Σ W∘GradTo.
func TestGradTraceTo(t *testing.T) {
	for _, n := range []int{1, 6, 13} {
		x := randDense(n, 5, 4)
		w := randDense(n, n, 5)
		ws := mat.NewDense(n, n, nil)
		ws.Add(w, w.T())
		for _, k := range testKernels {
			np := len(k.Params())
			got := make([]float64, np)
			k.GradTraceTo(got, ws, x)
			g := mat.NewDense(n, n, nil)
			for j := 0; j < np; j++ {
				k.GradTo(g, x, j)
				var want float64
				for a := 0; a < n; a++ {
					for b := 0; b < n; b++ {
						want += ws.At(a, b) * g.At(a, b)
					}
				}
				if math.Abs(got[j]-want) > 1e-11*math.Max(1, math.Abs(want)) {
					t.Errorf("%s n=%d: GradTraceTo[%d] = %v, want %v", name(k), n, j, got[j], want)
				}
			}
		}
	}
}

func TestNew(t *testing.T) {
	for _, c := range []struct {
		name   string
		theta  []float64
		degree int
		gamma  float64
		want   Kernel
	}{
		{"se", []float64{2, 3, 1e-4}, 0, 0, SE{Var: 2, Len2: 3, Jitter: 1e-4}},
		{"SE+lin", []float64{2, 3, 1e-4, 0.5}, 0, 0, SELin{SE: SE{Var: 2, Len2: 3, Jitter: 1e-4}, Lin: 0.5}},
		{"se+bias", []float64{2, 3, 1e-4, 0.5}, 0, 0, SEBias{SE: SE{Var: 2, Len2: 3, Jitter: 1e-4}, Bias: 0.5}},
		{"poly", []float64{1, 1e-4}, 9, 0, Poly{Var: 1, Jitter: 1e-4, Degree: 9}},
		{"poly", []float64{1, 1e-4}, 9, 1, Poly{Var: 1, Jitter: 1e-4, Degree: 9, Gamma: 1}},
	} {
		k, err := New(c.name, c.theta, c.degree, c.gamma)
		if err != nil || k != c.want {
			t.Errorf("New(%q, %v) = %v, %v; want %v", c.name, c.theta, k, err, c.want)
		}
	}
	for _, c := range []struct {
		name   string
		theta  []float64
		degree int
		gamma  float64
	}{
		{"matern", nil, 0, 0},
		{"se", []float64{1, 2}, 0, 0},
		{"se", []float64{1, -2, 1}, 0, 0},
		{"se", []float64{1, math.Inf(1), 1}, 0, 0},
		{"se", []float64{1, math.NaN(), 1}, 0, 0},
		{"poly", []float64{1, 1}, 0, 0},
		{"poly", []float64{1, 1}, 3, -1},
	} {
		if _, err := New(c.name, c.theta, c.degree, c.gamma); err == nil {
			t.Errorf("New(%q, %v, %d, %v): no error", c.name, c.theta, c.degree, c.gamma)
		}
	}
}

func TestParams(t *testing.T) {
	for _, k := range testKernels {
		th := k.Params()
		if len(th) != len(k.ParamNames()) {
			t.Errorf("%s: %d params, %d names", name(k), len(th), len(k.ParamNames()))
		}
		th[0] = 42 // Params returns a copy
		if k.Params()[0] == 42 {
			t.Errorf("%s: Params is not a copy", name(k))
		}
		if k2 := k.WithParams(k.Params()); k2 != k {
			t.Errorf("%s: WithParams(Params()) = %v", name(k), k2)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: WithParams with a wrong length did not panic", name(k))
				}
			}()
			k.WithParams([]float64{1})
		}()
	}
}

// TestPolyFixtureScale: the GPML fixture poly9_mnist_n200 uses inputs
// already scaled by 1/28 with c = 1, i.e. Gamma = 1: k = t1 (x·x' + 1)^9.
func TestPolyFixtureScale(t *testing.T) {
	k := Poly{Var: 2, Jitter: 1e-4, Degree: 9, Gamma: 1}
	x := mat.NewDense(2, 3, []float64{0.1, 0.2, 0.3, -0.1, 0.05, 0.2})
	c := mat.NewDense(2, 2, nil)
	k.CrossTo(c, x, x)
	want := 2 * math.Pow(1+(-0.01+0.01+0.06), 9)
	if math.Abs(c.At(0, 1)-want) > 1e-14 {
		t.Errorf("k = %v, want %v", c.At(0, 1), want)
	}
	if (Poly{Degree: 2}).Scale(4) != 0.25 || (Poly{Degree: 2, Gamma: 1}).Scale(4) != 1 {
		t.Error("Scale: Gamma 0 must mean 1/d")
	}
}
