package passgp

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/ep"
)

// IVM's posterior equals a direct recomputation from its sites
// (ep.FromSites), and its selection equals a brute-force greedy reference
// that recomputes every candidate's marginal from scratch at each step.
func TestIVMMatchesRecompute(t *testing.T) {
	x, y := toy(50, 20)
	k := toyKernel()
	const m = 12
	st, _ := ivmSelect(context.Background(), k, x, y, m)
	xa, ya := gatherRows(x, st.sel), gather(y, st.sel)
	post, err := ep.FromSites(k, xa, ya, ep.Sites{Tau: st.tau, Nu: st.nu})
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range st.sel {
		if math.Abs(post.Mean[i]-st.mu[j]) > 1e-9 || math.Abs(post.Var[i]-st.s2[j]) > 1e-9 {
			t.Errorf("selected %d: IVM (%v, %v), FromSites (%v, %v)", j, st.mu[j], st.s2[j], post.Mean[i], post.Var[i])
		}
	}
	// Unselected training points: predictive marginal plus the jitter (δ
	// applies to training points).
	mean, vr := make([]float64, 50), make([]float64, 50)
	post.PredictTo(mean, vr, nil, x)
	for j := 0; j < 50; j++ {
		if st.in[j] {
			continue
		}
		if math.Abs(mean[j]-st.mu[j]) > 1e-9 || math.Abs(vr[j]+k.DiagJitter()-st.s2[j]) > 1e-9 {
			t.Errorf("point %d: IVM (%v, %v), predictive (%v, %v)", j, st.mu[j], st.s2[j], mean[j], vr[j]+k.DiagJitter())
		}
	}

	// Brute-force greedy reference.
	var sel []int
	var tau, nu []float64
	for step := 0; step < m; step++ {
		mu, s2 := make([]float64, 50), make([]float64, 50)
		if step == 0 {
			k.DiagTo(s2, x)
			for i := range s2 {
				s2[i] += k.DiagJitter()
			}
		} else {
			p, err := ep.FromSites(k, gatherRows(x, sel), gather(y, sel), ep.Sites{Tau: tau, Nu: nu})
			if err != nil {
				t.Fatal(err)
			}
			p.PredictTo(mu, s2, nil, x)
			for i := range s2 {
				s2[i] += k.DiagJitter()
			}
		}
		best, bestH := -1, math.Inf(-1)
		for j := 0; j < 50; j++ {
			if slices.Contains(sel, j) {
				continue
			}
			sq := math.Sqrt(1 + s2[j])
			z := y[j] * mu[j] / sq
			r := ep.InvMills(z)
			nuj := r * (z + r) / (1 + s2[j])
			if h := -0.5 * math.Log(1-nuj*s2[j]); h > bestH {
				best, bestH = j, h
			}
		}
		j := best
		sq := math.Sqrt(1 + s2[j])
		z := y[j] * mu[j] / sq
		r := ep.InvMills(z)
		mh := mu[j] + y[j]*s2[j]*r/sq
		vh := s2[j] - s2[j]*s2[j]*r*(z+r)/(1+s2[j])
		sel = append(sel, j)
		tau = append(tau, 1/vh-1/s2[j])
		nu = append(nu, mh/vh-mu[j]/s2[j])
	}
	if !slices.Equal(sel, st.sel) {
		t.Errorf("IVM selected %v, reference %v", st.sel, sel)
	}
	if d := maxDiff(tau, st.tau); d > 1e-8 {
		t.Errorf("site precisions differ by %v", d)
	}
}

func TestIVMTrain(t *testing.T) {
	for _, site := range []bool{true, false} {
		t.Run(map[bool]string{true: "site-evidence", false: "ep-evidence"}[site], func(t *testing.T) {
			defer func(v bool) { ivmSiteHyp = v }(ivmSiteHyp)
			ivmSiteHyp = site
			testIVMTrain(t)
		})
	}
}

func testIVMTrain(t *testing.T) {
	x, y := toy(300, 21)
	res, err := Train(context.Background(), x, y, &Options{Method: IVM, M: 40, Passes: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Model.Active) != 40 || len(res.Batches) != 3 {
		t.Fatalf("|A| = %d, %d passes", len(res.Model.Active), len(res.Batches))
	}
	if res.Model.Kernel.Name() != "se+lin" {
		t.Errorf("IVM default kernel %s, want se+lin", res.Model.Kernel.Name())
	}
	xt, yt := toy(300, 22)
	p := make([]float64, 300)
	res.Model.PredictTo(p, xt)
	e := calib.ProbErrorRate(p, yt)
	t.Logf("IVM error %.3f θ %v", e, res.Model.Kernel.Params())
	if e > 60.0/300 {
		t.Errorf("IVM error %.3f > 60/300", e)
	}
}

func TestShiftImage(t *testing.T) {
	src := []float64{
		1, 2, 3,
		4, 5, 6,
		7, 8, 9,
	}
	dst := make([]float64, 9)
	ShiftImageTo(dst, src, 3, 3, 1, 0)
	if !slices.Equal(dst, []float64{1, 1, 2, 1, 4, 5, 1, 7, 8}) {
		t.Errorf("right shift: %v", dst)
	}
	ShiftImageTo(dst, src, 3, 3, 0, -1)
	if !slices.Equal(dst, []float64{4, 5, 6, 7, 8, 9, 1, 1, 1}) {
		t.Errorf("up shift: %v", dst)
	}
	x := mat.NewDense(2, 9, append(slices.Clone(src), src...))
	xa, ya := AugmentShifts(x, []float64{1, -1}, 3, 3, 8)
	if r, _ := xa.Dims(); r != 18 || ya[2] != 1 || ya[17] != -1 {
		t.Errorf("AugmentShifts: %d rows, labels %v", r, ya)
	}
}

// Training with invariances on tiny 4×4 "images": the retraining stage
// runs at fixed θ from the first active set and maps the indices back.
func TestAugmentTrain(t *testing.T) {
	n := 120
	x, y := toyImages(n)
	res, err := Train(context.Background(), x, y, &Options{Init: 20, Sub: 2, Augment: &Augmentation{Shifts: 4, ImageW: 4, ImageH: 4}})
	if err != nil {
		t.Fatal(err)
	}
	stage2 := 0
	for _, b := range res.Batches {
		if b.Augmented {
			stage2++
			if b.HypEvals != 0 {
				t.Error("θ optimised in the invariance stage")
			}
		}
	}
	if stage2 != 4 {
		t.Errorf("%d augmented batches, want 4", stage2)
	}
	for _, a := range res.Model.Active {
		if a < -1 || a >= n {
			t.Errorf("active index %d", a)
		}
	}
}
