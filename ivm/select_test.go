package ivm

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/internal/testenv"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// IVM's posterior equals a direct recomputation from its sites
// (ep.FromSites), and its selection equals a brute-force greedy reference
// that recomputes every candidate's marginal from scratch at each step.
func TestSelectMatchesRecompute(t *testing.T) {
	x, y := testenv.Toy(50, 20)
	k := kernel.SE{Var: 2, Len2: 0.5, Jitter: 1e-4}
	const m = 12
	st, _ := Select(context.Background(), k, x, y, m)
	xa, ya := gatherRows(x, st.Sel), gather(y, st.Sel)
	post, err := ep.FromSites(k, xa, ya, ep.Sites{Tau: st.Tau, Nu: st.Nu})
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range st.Sel {
		if math.Abs(post.Mean[i]-st.Mu[j]) > 1e-9 || math.Abs(post.Var[i]-st.S2[j]) > 1e-9 {
			t.Errorf("selected %d: IVM (%v, %v), FromSites (%v, %v)", j, st.Mu[j], st.S2[j], post.Mean[i], post.Var[i])
		}
	}
	// Unselected training points: predictive marginal plus the jitter (δ
	// applies to training points).
	mean, vr := make([]float64, 50), make([]float64, 50)
	post.PredictTo(mean, vr, nil, x)
	for j := 0; j < 50; j++ {
		if st.In[j] {
			continue
		}
		if math.Abs(mean[j]-st.Mu[j]) > 1e-9 || math.Abs(vr[j]+k.DiagJitter()-st.S2[j]) > 1e-9 {
			t.Errorf("point %d: IVM (%v, %v), predictive (%v, %v)", j, st.Mu[j], st.S2[j], mean[j], vr[j]+k.DiagJitter())
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
	if !slices.Equal(sel, st.Sel) {
		t.Errorf("IVM selected %v, reference %v", st.Sel, sel)
	}
	if d := maxDiff(tau, st.Tau); d > 1e-8 {
		t.Errorf("site precisions differ by %v", d)
	}
}

// TestSelectSiteGuards: Select on data with latents of zero prior variance
// (points at the origin under a linear kernel without jitter: their
// matched variance is zero and their site precision 1/0 − 1/0 would be
// NaN) skips them and gives finite positive site precisions.
func TestSelectSiteGuards(t *testing.T) {
	x, y := testenv.ToyOrigin()
	k := kernel.SELin{SE: kernel.SE{Var: 0, Len2: 1}, Lin: 1}
	st, err := Select(context.Background(), k, x, y, len(y))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Sel) == 0 {
		t.Fatal("no point selected")
	}
	for i, tau := range st.Tau {
		if !(tau > 0) || math.IsInf(tau, 0) || math.IsNaN(st.Nu[i]) || math.IsInf(st.Nu[i], 0) {
			t.Errorf("site %d (point %d): τ̃ = %v, ν̃ = %v", i, st.Sel[i], tau, st.Nu[i])
		}
		if st.Sel[i] >= 30 {
			t.Errorf("point %d, of zero variance, selected", st.Sel[i])
		}
	}
}

func maxDiff(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d = max(d, math.Abs(a[i]-b[i]))
	}
	return d
}
