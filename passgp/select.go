package passgp

import (
	"cmp"
	"math"
	"slices"
)

// boundaryKey is the sort key of PASS-GP's budget (Options.MaxActive),
// smaller first: |q(y_i|x_i) − 1/2|, so the points closest to the
// decision boundary, whose labels the posterior knows least about, come
// first (uncertainty sampling; Lewis & Gale 1994), and a point far on the
// wrong side, which the model calls mislabelled, last (docs/decisions.md).
func boundaryKey(p float64) float64 { return math.Abs(p - 0.5) }

// rule is the selection rule of one batch: the paper's thresholds and
// swap size plus PASS-GP's budget (Options.MaxActive). The zero values of
// budget and floor give the paper's rules exactly.
type rule struct {
	pinc, pdel float64
	swaps      int // fPASS-GP: points exchanged per batch
	budget     int // PASS-GP: bound on |A| (0: none)
	floor      int // PASS-GP: p_del's floor (keepFloor) and, if set, p_inc's doubling bound (0: none)
}

// update is the outcome of a rule on one batch: which active points stay
// and which candidates come in (indices into the candidate list,
// ascending).
type update struct {
	keep    []bool
	incl    []int
	trimmed bool // the budget bound
}

// passUpdate is PASS-GP's rule (paper Algorithm 1): keep active points
// whose cavity predictive probability is at most pdel (pdel >= 1 keeps
// every point), include candidates whose predictive probability is below
// pinc (pinc >= 1 includes every candidate). With a budget, if the kept
// and included points exceed it, the budget best of them by boundaryKey
// stay (cavity probabilities for active points, predictive
// ones for candidates; ties go to active points, then by position). If
// the rule would delete every active point and include none, no point is
// deleted, so that A never becomes empty. With a floor (rule.keepFloor,
// set with a budget), p_del leaves at least that many active points and
// p_inc at most doubles A (update.limit).
func passUpdate(cav, q []float64, r rule) update {
	u := update{keep: make([]bool, len(cav))}
	kept := 0
	for i, p := range cav {
		if r.pdel >= 1 || p <= r.pdel {
			u.keep[i] = true
			kept++
		}
	}
	if floor := r.keepFloor(len(cav)); kept < floor {
		kept += u.restore(cav, floor-kept)
	}
	for i, p := range q {
		if r.pinc >= 1 || p < r.pinc {
			u.incl = append(u.incl, i)
		}
	}
	if m := max(len(cav), 1); r.floor > 0 && len(u.incl) > m {
		u.limit(q, m)
	}
	if r.budget > 0 && kept+len(u.incl) > r.budget {
		u.trim(cav, q, r.budget)
		u.trimmed = true
		kept = r.budget - len(u.incl)
	}
	if kept == 0 && len(u.incl) == 0 {
		for i := range u.keep {
			u.keep[i] = true
		}
	}
	return u
}

// keepFloor returns the fewest of m active points that p_del may leave:
// rule.floor, or m/keepFloorShare if more (0 without a floor).
func (r rule) keepFloor(m int) int {
	if r.floor == 0 {
		return 0
	}
	return max(r.floor, m/keepFloorShare)
}

// restore keeps up to n more of the active points that p_del deleted,
// lowest cavity probability first, and returns how many it kept: PASS-GP's
// floor (rule.keepFloor; Shuttle's rarest classes swung between 1 and 2000
// active points without it).
func (u *update) restore(cav []float64, n int) int {
	var del []int
	for i := range cav {
		if !u.keep[i] {
			del = append(del, i)
		}
	}
	slices.SortStableFunc(del, func(a, b int) int { return cmp.Compare(cav[a], cav[b]) })
	n = min(n, len(del))
	for _, i := range del[:n] {
		u.keep[i] = true
	}
	return n
}

// limit keeps the n included candidates closest to the boundary
// (boundaryKey), the mirror of the floor: each candidate's score assumes
// no other joins, yet a whole batch can sit near q = 1/2 after a θ search
// (docs/method.md, Section 2). A batch's EP run then costs at most 8 times
// the last one's.
func (u *update) limit(q []float64, n int) {
	slices.SortStableFunc(u.incl, func(a, b int) int { return cmp.Compare(boundaryKey(q[a]), boundaryKey(q[b])) })
	u.incl = u.incl[:n]
	slices.Sort(u.incl)
}

// trim keeps the budget best kept active points and included candidates
// by boundaryKey.
func (u *update) trim(cav, q []float64, budget int) {
	type pt struct {
		key    float64
		active bool
		i      int
	}
	var pool []pt
	for i, k := range u.keep {
		if k {
			pool = append(pool, pt{boundaryKey(cav[i]), true, i})
		}
	}
	for _, i := range u.incl {
		pool = append(pool, pt{boundaryKey(q[i]), false, i})
	}
	// The pool is in position order, active points first: a stable sort
	// breaks ties by it.
	slices.SortStableFunc(pool, func(a, b pt) int { return cmp.Compare(a.key, b.key) })
	clear(u.keep)
	u.incl = u.incl[:0]
	for _, p := range pool[:budget] {
		if p.active {
			u.keep[p.i] = true
		} else {
			u.incl = append(u.incl, p.i)
		}
	}
	slices.Sort(u.incl)
}

// swapUpdate is fPASS-GP's rule (paper Section 5): exchange the k active
// points of largest cavity predictive probability for the k candidates of
// smallest predictive probability, k = swaps limited by the active points
// and the candidates available. Ties are broken by position, so the rule
// is deterministic.
func swapUpdate(cav, q []float64, r rule) update {
	u := update{keep: make([]bool, len(cav))}
	for i := range u.keep {
		u.keep[i] = true
	}
	k := min(r.swaps, len(cav), len(q))
	if k <= 0 {
		return u
	}
	del := argsort(cav)
	for _, i := range del[len(del)-k:] {
		u.keep[i] = false
	}
	u.incl = argsort(q)[:k]
	slices.Sort(u.incl)
	return u
}

// argsort returns the indices that sort v ascending (stable).
func argsort(v []float64) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	return idx
}

// rule returns the batch selection rule.
func (t *trainer) rule() rule {
	r := rule{pinc: t.c.PInc, pdel: t.c.PDel, swaps: int(math.Round(t.c.PExc * float64(t.c.M))), budget: t.budget()}
	if t.c.MaxActive > 0 {
		// The floor belongs with the budget: without one, the paper's
		// rule exactly.
		r.floor = floorOf(t.c.Init, r.budget)
	}
	return r
}

// budget returns PASS-GP's bound on |A| for the current batch: MaxActive,
// but past BudgetCap points only while the first pass's error still falls
// (errorFalling); otherwise A stops at its size or BudgetCap. Why: a larger
// set must pay for its O(N·M²) pass, and noisy data, whose inclusions grow
// with N (Steinwart 2003), would fill any budget (docs/method.md).
func (t *trainer) budget() int {
	b := t.c.MaxActive
	if b <= BudgetCap {
		return b
	}
	m := max(BudgetCap, len(t.st.Active))
	if errorFalling(t.st.Stats, m) {
		return b
	}
	return m
}

// errorFalling reports whether the last doubling of A up to m points
// bought accuracy: whether the first pass's batches, each scored before
// the model saw it (prequential error; Dawid 1984), erred less with m/2
// to m active points than with m/4 to m/2, by two standard errors of the
// difference (pooled binomial; an empty window gives NaN: false). Noisy
// data fill m points in a few batches, their error level at the noise.
func errorFalling(stats []BatchStats, m int) bool {
	var n, e [2]float64
	for i := 1; i < len(stats); i++ {
		b, size := stats[i], stats[i-1].Active // A when batch i was scored
		if b.Pass != 0 || 4*size < m || size > m {
			continue
		}
		w := 0
		if 2*size >= m {
			w = 1
		}
		n[w] += float64(b.Scored)
		e[w] += float64(b.Wrong)
	}
	return e[0]/n[0]-e[1]/n[1] > 2*pooledSE(n, e)
}

// pooledSE is the standard error of the difference of the error rates
// e[k]/n[k] under their pooled rate (binomial).
func pooledSE(n, e [2]float64) float64 {
	p := (e[0] + e[1]) / (n[0] + n[1])
	return math.Sqrt(p * (1 - p) * (1/n[0] + 1/n[1]))
}

// keepFloorInit and keepFloorShare set PASS-GP's floor on the active
// points that p_del leaves in a batch (update.restore, rule.keepFloor):
// half the smaller of Init and the budget (floorOf), or half the active
// set if more. Each point's cavity test assumes the others stay; deleting
// most of a set at once leaves its hardest points, on which the next θ
// search moves far, and the prior elsewhere, under which the next batch
// comes in whole (Shuttle: 227 to 1409 points and back with a tenth).
// Both halves: chosen on the development protocol (docs/decisions.md).
const keepFloorInit, keepFloorShare = 2, 2

// floorOf is PASS-GP's floor for N_init init and the budget.
func floorOf(init, budget int) int { return min(init, budget) / keepFloorInit }

// budgetBatchFactor caps the candidates a batch offers a full budget at
// this many times MaxActive, a cost bound: scoring a candidate costs
// O(MaxActive²), so a batch's scoring stays O(MaxActive³), the order of
// its EP run, however large N/N_sub grows; the window moves with the pass,
// so the passes see different points. It binds only beyond N_sub·5·
// MaxActive training points (10⁵ points at the default budget), none of
// the development suite's sets.
const budgetBatchFactor = 5

// budgetCandidates returns the candidates of the current batch that PASS-GP
// scores, and how many it leaves out: all of them, unless MaxActive is set
// and the batch holds more than budgetBatchFactor·MaxActive, in which case
// a window of that many, shifted by the pass so that every pass sees
// other points (the batch is already in random order).
func (t *trainer) budgetCandidates(cand []int) ([]int, int) {
	k := budgetBatchFactor * t.budget()
	if t.c.Method != PASSGP || t.c.MaxActive == 0 || len(cand) <= k {
		return cand, 0
	}
	start := (t.st.Pass * k) % len(cand)
	out := make([]int, 0, k)
	for i := 0; i < k; i++ {
		out = append(out, cand[(start+i)%len(cand)])
	}
	return out, len(cand) - k
}
