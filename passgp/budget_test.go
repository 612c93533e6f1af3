package passgp

import "testing"

// curve returns batch stats of one pass in which the batches were scored
// by active sets of the given sizes: each point is {|A| when scored,
// candidates scored, candidates wrong}. A first batch, scored by nothing
// that counts, gives the first size.
func curve(pass int, pts ...[3]int) []BatchStats {
	bs := []BatchStats{{Pass: pass, Active: pts[0][0]}}
	for i, p := range pts {
		next := p[0]
		if i+1 < len(pts) {
			next = pts[i+1][0]
		}
		bs = append(bs, BatchStats{Pass: pass, Batch: i + 1, Scored: p[1], Wrong: p[2], Active: next})
	}
	return bs
}

// TestErrorFalling: the batches scored by m/2 to m active points must err
// less than those scored by m/4 to m/2 by more than two standard errors;
// other sizes, later passes and empty windows do not count.
func TestErrorFalling(t *testing.T) {
	const m = 2000
	for _, c := range []struct {
		name  string
		stats []BatchStats
		want  bool
	}{
		{"none", nil, false},
		// 100/1000 against 50/1000: a difference of 5% with SE 1.18%.
		{"falling", curve(0, [3]int{600, 1000, 100}, [3]int{1200, 1000, 50}), true},
		{"flat", curve(0, [3]int{600, 1000, 60}, [3]int{900, 1000, 61}, [3]int{1200, 1000, 59}, [3]int{1900, 1000, 60}), false},
		{"rising", curve(0, [3]int{600, 1000, 50}, [3]int{1200, 1000, 100}), false},
		// 1.5 SE: 60/1000 against 45/1000 (pooled p 5.25%, SE 1.0%).
		{"within two SE", curve(0, [3]int{600, 1000, 60}, [3]int{1200, 1000, 45}), false},
		// 2.3 SE: 60/1000 against 38/1000 (pooled p 4.9%, SE 0.97%).
		{"beyond two SE", curve(0, [3]int{600, 1000, 60}, [3]int{1200, 1000, 38}), true},
		// Noisy data: from 300 points to the budget in one batch; the
		// error of the 300-point model is not a point of the curve.
		{"no earlier window", curve(0, [3]int{300, 1000, 300}, [3]int{1500, 1000, 60}), false},
		{"no later window", curve(0, [3]int{600, 1000, 100}, [3]int{900, 1000, 50}), false},
		{"sizes past m left out", curve(0, [3]int{600, 1000, 60}, [3]int{1200, 1000, 60}, [3]int{2500, 1000, 0}), false},
		{"later passes left out", append(curve(0, [3]int{600, 1000, 60}, [3]int{1200, 1000, 60}), curve(1, [3]int{700, 1000, 100}, [3]int{1500, 1000, 0})...), false},
		{"no errors", curve(0, [3]int{600, 1000, 0}, [3]int{1200, 1000, 0}), false},
	} {
		if got := errorFalling(c.stats, m); got != c.want {
			t.Errorf("%s: errorFalling = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestBudget: a budget up to BudgetCap binds as set; past it, the active
// set grows to MaxActive only while the first pass's error falls, and
// otherwise stops at its size or BudgetCap, never trimming what it grew.
func TestBudget(t *testing.T) {
	falling := curve(0, [3]int{600, 1000, 100}, [3]int{1200, 1000, 50})
	flat := curve(0, [3]int{600, 1000, 60}, [3]int{1200, 1000, 60})
	for _, c := range []struct {
		name      string
		maxActive int
		active    int
		stats     []BatchStats
		want      int
	}{
		{"no budget", 0, 5000, flat, 0},
		{"under the cap", 1500, 1400, flat, 1500},
		{"at the cap", BudgetCap, 1900, falling, BudgetCap},
		{"past the cap, falling", 3000, 1900, falling, 3000},
		{"past the cap, flat", 3000, 1900, flat, BudgetCap},
		// Grown to 2500: the windows are now 625-1250 and 1250-2500
		// points. Above, the 600-point batch leaves the first and no
		// batch is in the second: A stops at its size. Here both hold a
		// batch, and the error still falls.
		{"grown, windows move", 3000, 2500, falling, 2500},
		{"grown, still falling", 3000, 2500, curve(0, [3]int{700, 1000, 100}, [3]int{1300, 1000, 50}), 3000},
		{"grown, now flat", 3000, 2500, flat, 2500},
		{"first batch", 3000, 300, nil, BudgetCap},
	} {
		tr := &trainer{c: &config{Options: Options{MaxActive: c.maxActive}}}
		tr.st.Active = make([]int, c.active)
		tr.st.Stats = c.stats
		if got := tr.budget(); got != c.want {
			t.Errorf("%s: budget = %d, want %d", c.name, got, c.want)
		}
	}
}
