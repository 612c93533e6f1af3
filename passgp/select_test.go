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
		name string
		swap bool
		r    rule
		keep []bool
		incl []int
	}{
		{"fpassgp paper", true, rule{swaps: 2}, []bool{true, false, true, false, true}, []int{1, 3}},
		{"passgp paper", false, rule{pdel: 0.95, pinc: 0.6}, []bool{true, false, true, false, true}, []int{1, 3}},
		// p_del would keep only 0.5; the floor of 3 keeps the two lowest
		// of the deleted, 0.7 and 0.9.
		{"passgp floor", false, rule{pdel: 0.6, pinc: 0.6, floor: 3}, []bool{true, false, true, false, true}, []int{1, 3}},
		// Budget 3 of {0.9, 0.5, 0.7} kept and {0.1, 0.3} included, by
		// |p - 1/2|: 0.5, 0.7 (0.2; the active point first), 0.3.
		{"passgp budget", false, rule{pdel: 0.95, pinc: 0.6, budget: 3}, []bool{false, false, true, false, true}, []int{3}},
	} {
		var u update
		if c.swap {
			u = swapUpdate(cav, q, c.r)
		} else {
			u = passUpdate(cav, q, c.r)
		}
		if !slices.Equal(u.keep, c.keep) || !slices.Equal(u.incl, c.incl) {
			t.Errorf("%s: keep %v incl %v; want %v %v", c.name, u.keep, u.incl, c.keep, c.incl)
		}
	}
	// With a floor, p_inc at most doubles A: of five candidates below
	// p_inc, the two closest to q = 1/2 (0.55 and 0.45, a tie kept in
	// position order); the budget does not bind.
	u := passUpdate([]float64{0.5, 0.7}, []float64{0.55, 0.1, 0.45, 0.3, 0.58}, rule{pdel: 0.95, pinc: 0.6, floor: 1})
	if !slices.Equal(u.incl, []int{0, 2}) || u.trimmed || !u.keep[0] || !u.keep[1] {
		t.Errorf("doubling: %+v, want incl [0 2], both kept, not trimmed", u)
	}
	// Never empties A.
	u = passUpdate([]float64{0.999}, []float64{0.9}, rule{pdel: 0.99, pinc: 0.6})
	if !u.keep[0] || len(u.incl) != 0 {
		t.Errorf("passUpdate emptied A: %+v", u)
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

// Randomised: without a budget the rules are the paper's; with one, |A|
// never exceeds it.
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
		u = swapUpdate(cav, q, rule{swaps: k})
		keep, incl = paperSwap(cav, q, k)
		if !slices.Equal(u.keep, keep) || !slices.Equal(u.incl, incl) {
			t.Fatalf("swapUpdate differs from the paper's rule: %v %v against %v %v", u.keep, u.incl, keep, incl)
		}

		// With a floor the inclusions are the paper's closest to the
		// boundary, at most max(|A|, 1) of them.
		u = passUpdate(cav, q, rule{pinc: pinc, pdel: pdel, floor: 1 + rng.IntN(5)})
		_, incl = paperPass(cav, q, pdel, pinc)
		if len(u.incl) != min(len(incl), max(len(cav), 1)) {
			t.Fatalf("doubling: %d of %d inclusions with %d active points", len(u.incl), len(incl), len(cav))
		}
		for _, i := range incl {
			if !slices.Contains(u.incl, i) && slices.ContainsFunc(u.incl, func(j int) bool { return boundaryKey(q[j]) > boundaryKey(q[i]) }) {
				t.Fatalf("doubling dropped candidate %d (q %v) but kept a farther one: %v of %v", i, q[i], u.incl, q)
			}
		}

		r := rule{pinc: pinc, pdel: pdel, budget: 1 + rng.IntN(20)}
		u = passUpdate(cav, q, r)
		if n := count(u.keep) + len(u.incl); n > max(r.budget, len(cav)) || (n > r.budget && count(u.keep) != len(cav)) {
			t.Fatalf("passUpdate with budget %d keeps %d of %d and includes %d", r.budget, count(u.keep), len(cav), len(u.incl))
		}
	}
}
