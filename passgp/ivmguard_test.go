package passgp

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestIVMSiteGuards: IVM on data with latents of zero prior variance
// (points at the origin under a linear kernel without jitter: their
// matched variance is zero and their site precision 1/0 − 1/0 would be
// NaN) skips them, gives finite positive site precisions and trains a
// classifier with finite predictions.
func TestIVMSiteGuards(t *testing.T) {
	xs, ys := toy(30, 42)
	x := mat.NewDense(36, 2, nil)
	y := make([]float64, 36)
	for i := 0; i < 30; i++ {
		x.SetRow(i, xs.RawRowView(i))
		y[i] = ys[i]
	}
	for i := 30; i < 36; i++ {
		y[i] = float64(2*(i%2) - 1) // x_i = 0
	}
	k := kernel.SELin{SE: kernel.SE{Var: 0, Len2: 1}, Lin: 1}
	st, err := ivmSelect(context.Background(), k, x, y, len(y))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.sel) == 0 {
		t.Fatal("no point selected")
	}
	for i, tau := range st.tau {
		if !(tau > 0) || math.IsInf(tau, 0) || math.IsNaN(st.nu[i]) || math.IsInf(st.nu[i], 0) {
			t.Errorf("site %d (point %d): τ̃ = %v, ν̃ = %v", i, st.sel[i], tau, st.nu[i])
		}
		if st.sel[i] >= 30 {
			t.Errorf("point %d, of zero variance, selected", st.sel[i])
		}
	}
	res, err := Train(context.Background(), x, y, &Options{Method: IVM, M: len(y), Kernel: k, FixedTheta: true, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	q := make([]float64, len(y))
	res.Model.PredictTo(q, x)
	for i, v := range q {
		if !(v >= 0 && v <= 1) {
			t.Fatalf("prediction %d = %v", i, v)
		}
	}
}

// TestIVMSiteEvidenceUninformative: sites with τ̃ = 0 or not finite
// (which 1/τ̃ cannot enter) leave the evidence unchanged instead of making
// it NaN.
func TestIVMSiteEvidenceUninformative(t *testing.T) {
	x, y := toy(40, 43)
	k := kernel.SE{Var: 2, Len2: 0.7, Jitter: 0.01}
	st, err := ivmSelect(context.Background(), k, x, y, 10)
	if err != nil {
		t.Fatal(err)
	}
	xa := gatherRows(x, st.sel)
	want, ok := ivmSiteEvidence(k, xa, st.tau, st.nu, nil)
	if !ok || math.IsNaN(want) {
		t.Fatalf("evidence %v, %v", want, ok)
	}
	for _, bad := range []float64{0, math.Inf(1), math.NaN()} {
		// One more row whose site carries no information.
		xb := mat.NewDense(len(st.sel)+1, 2, nil)
		xb.Copy(xa)
		xb.SetRow(len(st.sel), []float64{0.1, -0.2})
		tau := append(append([]float64(nil), st.tau...), bad)
		nu := append(append([]float64(nil), st.nu...), 1)
		g := make([]float64, len(k.Params()))
		got, ok := ivmSiteEvidence(k, xb, tau, nu, g)
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
