package passgp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSelectRules(t *testing.T) {
	cav := []float64{0.9, 0.99, 0.5, 0.999, 0.7}
	q := []float64{0.8, 0.1, 0.95, 0.3}
	for _, c := range []struct {
		name           string
		swap           bool
		r              rule
		keep           []bool
		incl           []int
		noise, skipped int
	}{
		{"fpassgp paper", true, rule{swaps: 2}, []bool{true, false, true, false, true}, []int{1, 3}, 0, 0},
		{"passgp paper", false, rule{pdel: 0.95, pinc: 0.6}, []bool{true, false, true, false, true}, []int{1, 3}, 0, 0},
		// p_del would keep only 0.5; the floor of 3 keeps the two lowest
		// of the deleted, 0.7 and 0.9.
		{"passgp floor", false, rule{pdel: 0.6, pinc: 0.6, floor: 3}, []bool{true, false, true, false, true}, []int{1, 3}, 0, 0},
		// 0.5 goes as noise and stays out; the floor keeps 0.7, 0.9, 0.99.
		{"passgp floor noise", false, rule{pdel: 0.6, pinc: 0.6, pskip: 0.55, floor: 3}, []bool{true, true, false, false, true}, nil, 1, 2},
		// 0.1 is skipped as noise; only 0.3 (< p_inc) is included.
		{"passgp skip", false, rule{pdel: 0.95, pinc: 0.6, pskip: 0.2}, []bool{true, false, true, false, true}, []int{3}, 0, 1},
		// 0.5 is deleted as noise; 0.1 and 0.3 are skipped.
		{"passgp skip active", false, rule{pdel: 0.95, pinc: 0.6, pskip: 0.55}, []bool{true, false, false, false, true}, nil, 1, 2},
		// Budget 3 of {0.9, 0.5, 0.7} kept and {0.1, 0.3} included, by
		// |p - 1/2|: 0.5, 0.7 (0.2; the active point first), 0.3.
		{"passgp budget", false, rule{pdel: 0.95, pinc: 0.6, budget: 3}, []bool{false, false, true, false, true}, []int{3}, 0, 0},
		// Noise: 0.5 deleted, 0.1 and 0.3 skipped; k = 2 counts the noise
		// deletion, so one more goes (0.999), and the two eligible
		// candidates 0.8 and 0.95 refill A to M = 5.
		{"fpassgp skip", true, rule{swaps: 2, pskip: 0.55, budget: 5}, []bool{true, true, false, false, true}, []int{0, 2}, 1, 2},
	} {
		var u update
		if c.swap {
			u = swapUpdate(cav, q, c.r)
		} else {
			u = passUpdate(cav, q, c.r)
		}
		if !slices.Equal(u.keep, c.keep) || !slices.Equal(u.incl, c.incl) || u.noise != c.noise || u.skipped != c.skipped {
			t.Errorf("%s: keep %v incl %v noise %d skipped %d; want %v %v %d %d", c.name, u.keep, u.incl, u.noise, u.skipped, c.keep, c.incl, c.noise, c.skipped)
		}
	}
	// Never empties A.
	u := passUpdate([]float64{0.999}, []float64{0.9}, rule{pdel: 0.99, pinc: 0.6})
	if !u.keep[0] || len(u.incl) != 0 {
		t.Errorf("passUpdate emptied A: %+v", u)
	}
	u = passUpdate([]float64{0.01}, []float64{0.02}, rule{pdel: 0.99, pinc: 0.6, pskip: 0.05})
	if !u.keep[0] || len(u.incl) != 0 || u.noise != 0 {
		t.Errorf("passUpdate with noise emptied A: %+v", u)
	}
}

// paperPass and paperSwap are the paper's rules written directly
// (Algorithm 1 and Section 5), the reference the extended rules must equal
// when the extensions are off.
func paperPass(cav, q []float64, pdel, pinc float64) ([]bool, []int) {
	keep := make([]bool, len(cav))
	kept := 0
	for i, p := range cav {
		if pdel >= 1 || p <= pdel {
			keep[i] = true
			kept++
		}
	}
	var incl []int
	for i, p := range q {
		if pinc >= 1 || p < pinc {
			incl = append(incl, i)
		}
	}
	if kept == 0 && len(incl) == 0 {
		for i := range keep {
			keep[i] = true
		}
	}
	return keep, incl
}

func paperSwap(cav, q []float64, k int) ([]bool, []int) {
	k = min(k, len(cav), len(q))
	keep := make([]bool, len(cav))
	for i := range keep {
		keep[i] = true
	}
	if k <= 0 {
		return keep, nil
	}
	del := argsort(cav)
	for _, i := range del[len(del)-k:] {
		keep[i] = false
	}
	incl := slices.Clone(argsort(q)[:k])
	slices.Sort(incl)
	return keep, incl
}

// Randomised: with the extensions off the rules are the paper's; with a
// budget |A| never exceeds it; skipped and noise points never stay or
// come in; fPASS-GP never grows A beyond max(M, |A|).
func TestSelectRulesProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	draw := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.Float64()
			if rng.IntN(4) == 0 {
				v[i] = math.Round(v[i]*10) / 10 // ties
			}
		}
		return v
	}
	count := func(b []bool) (n int) {
		for _, v := range b {
			if v {
				n++
			}
		}
		return n
	}
	for it := 0; it < 2000; it++ {
		cav, q := draw(rng.IntN(30)), draw(rng.IntN(30))
		pinc, pdel := 0.1+0.9*rng.Float64(), 0.5+0.5*rng.Float64()
		k := rng.IntN(10)
		u := passUpdate(cav, q, rule{pinc: pinc, pdel: pdel})
		keep, incl := paperPass(cav, q, pdel, pinc)
		if !slices.Equal(u.keep, keep) || !slices.Equal(u.incl, incl) {
			t.Fatalf("passUpdate differs from the paper's rule: %v %v against %v %v", u.keep, u.incl, keep, incl)
		}
		u = swapUpdate(cav, q, rule{swaps: k, budget: len(cav) + rng.IntN(3)})
		keep, incl = paperSwap(cav, q, k)
		if !slices.Equal(u.keep, keep) || !slices.Equal(u.incl, incl) {
			t.Fatalf("swapUpdate differs from the paper's rule: %v %v against %v %v", u.keep, u.incl, keep, incl)
		}

		r := rule{pinc: pinc, pdel: pdel, pskip: 0.3 * rng.Float64(), budget: 1 + rng.IntN(20), swaps: k}
		r.pskip = min(r.pskip, r.pinc/2)
		u = passUpdate(cav, q, r)
		if n := count(u.keep) + len(u.incl); n > max(r.budget, len(cav)) || (n > r.budget && count(u.keep) != len(cav)) {
			t.Fatalf("passUpdate with budget %d keeps %d of %d and includes %d", r.budget, count(u.keep), len(cav), len(u.incl))
		}
		checkNoise(t, "passUpdate", cav, q, r, u)
		u = swapUpdate(cav, q, r)
		if n := count(u.keep) + len(u.incl); n > max(r.budget, len(cav)) {
			t.Fatalf("swapUpdate grew A to %d (M %d, |A| %d)", n, r.budget, len(cav))
		}
		checkNoise(t, "swapUpdate", cav, q, r, u)
	}
}

func checkNoise(t *testing.T, name string, cav, q []float64, r rule, u update) {
	t.Helper()
	noise, skipped := 0, 0
	for _, p := range cav {
		if p < r.pskip {
			noise++
		}
	}
	for _, p := range q {
		if p < r.pskip {
			skipped++
		}
	}
	if u.skipped != skipped {
		t.Fatalf("%s: skipped %d, want %d", name, u.skipped, skipped)
	}
	for _, i := range u.incl {
		if q[i] < r.pskip {
			t.Fatalf("%s: included %v below p_skip %v", name, q[i], r.pskip)
		}
	}
	if u.noise != 0 && u.noise != noise {
		t.Fatalf("%s: noise %d, want %d", name, u.noise, noise)
	}
	if u.noise != 0 {
		for i, p := range cav {
			if p < r.pskip && u.keep[i] {
				t.Fatalf("%s: kept an active point below p_skip", name)
			}
		}
	}
}
