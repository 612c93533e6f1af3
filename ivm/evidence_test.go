package ivm

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/internal/testenv"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// SiteEvidence's gradient matches central finite differences in log θ,
// and Optimize does not decrease the evidence.
func TestSiteEvidence(t *testing.T) {
	x, y := testenv.Toy(80, 41)
	k := kernel.SELin{SE: kernel.SE{Var: 2, Len2: 0.7, Jitter: 0.01}, Lin: 0.3}
	st, _ := Select(context.Background(), k, x, y, 25)
	xa := gatherRows(x, st.Sel)
	th := k.Params()
	g := make([]float64, len(th))
	lz, ok := SiteEvidence(k, xa, st.Tau, st.Nu, g)
	if !ok {
		t.Fatal("C not positive definite")
	}
	const h = 1e-5
	for j := range th {
		f := func(s float64) float64 {
			p := append([]float64(nil), th...)
			p[j] *= math.Exp(s)
			v, _ := SiteEvidence(k.WithParams(p), xa, st.Tau, st.Nu, nil)
			return v
		}
		fd := (f(h) - f(-h)) / (2 * h)
		if math.Abs(fd-g[j]) > 1e-5*math.Max(1, math.Abs(fd)) {
			t.Errorf("∂/∂log θ_%d: analytic %v, finite difference %v", j, g[j], fd)
		}
	}
	k2, _, evals := Optimize(context.Background(), k, xa, st.Tau, st.Nu, nil, nil, nil, 50)
	lz2, _ := SiteEvidence(k2, xa, st.Tau, st.Nu, nil)
	if evals == 0 || lz2 < lz-1e-12 {
		t.Errorf("Optimize: log Z %v -> %v in %d evaluations", lz, lz2, evals)
	}
	// Fixed components stay.
	k3, _, _ := Optimize(context.Background(), k, xa, st.Tau, st.Nu, []bool{false, true, false, true}, nil, nil, 20)
	if p := k3.Params(); p[1] != th[1] || p[3] != th[3] {
		t.Errorf("fixed t2, t4 moved: %v -> %v", th, p)
	}
}

// TestSiteEvidenceUninformative: sites with τ̃ = 0 or not finite
// (which 1/τ̃ cannot enter) leave the evidence unchanged instead of making
// it NaN.
func TestSiteEvidenceUninformative(t *testing.T) {
	x, y := testenv.Toy(40, 43)
	k := kernel.SE{Var: 2, Len2: 0.7, Jitter: 0.01}
	st, err := Select(context.Background(), k, x, y, 10)
	if err != nil {
		t.Fatal(err)
	}
	xa := gatherRows(x, st.Sel)
	want, ok := SiteEvidence(k, xa, st.Tau, st.Nu, nil)
	if !ok || math.IsNaN(want) {
		t.Fatalf("evidence %v, %v", want, ok)
	}
	for _, bad := range []float64{0, math.Inf(1), math.NaN()} {
		// One more row whose site carries no information.
		xb := mat.NewDense(len(st.Sel)+1, 2, nil)
		xb.Copy(xa)
		xb.SetRow(len(st.Sel), []float64{0.1, -0.2})
		tau := append(append([]float64(nil), st.Tau...), bad)
		nu := append(append([]float64(nil), st.Nu...), 1)
		g := make([]float64, len(k.Params()))
		got, ok := SiteEvidence(k, xb, tau, nu, g)
		if !ok || math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("τ̃ = %v: evidence %v (ok %v), want %v", bad, got, ok, want)
		}
		for j, v := range g {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("τ̃ = %v: gradient %d = %v", bad, j, v)
			}
		}
	}
}
