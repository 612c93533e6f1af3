package passgp

import (
	"cmp"
	"math"
	"slices"
)

// boundaryKey is the sort key of PASS-GP's budget (Options.MaxActive),
// smaller first: |q(y_i|x_i) − 1/2|, so the points closest to the
// decision boundary, of largest predictive entropy, whose labels the
// current posterior knows least about, come first (uncertainty sampling),
// and a point far on the wrong side, which the model calls mislabelled,
// comes last. Ranked lowest-first as fPASS-GP's swaps are, the budget
// fills with the mislabelled points on noisy data (9.08% against 7.14%
// test error on docs/results.md's noisy task; docs/method.md).
func boundaryKey(p float64) float64 { return math.Abs(p - 0.5) }

// rule is the selection rule of one batch: the paper's thresholds and
// swap size plus the noise and budget extensions (Options.PSkip,
// MaxActive). The zero values of pskip and budget give the paper's rules
// exactly.
type rule struct {
	pinc, pdel float64
	swaps      int // fPASS-GP: points exchanged per batch
	pskip      float64
	budget     int // PASS-GP: bound on |A| (0: none); fPASS-GP: M
	floor      int // PASS-GP: fewest active points p_del leaves (keepFloor; 0: none)
}

// update is the outcome of a rule on one batch: which active points stay,
// which candidates come in (indices into the candidate list, ascending),
// and how many points the noise rule removed (active points deleted and
// candidates skipped because the model calls their label wrong).
type update struct {
	keep           []bool
	incl           []int
	noise, skipped int
	trimmed        bool // the budget bound
}

// passUpdate is PASS-GP's rule (paper Algorithm 1): keep active points
// whose cavity predictive probability is at most pdel (pdel >= 1 keeps
// every point), include candidates whose predictive probability is below
// pinc (pinc >= 1 includes every candidate). With pskip > 0, an active
// point whose cavity probability is below pskip is deleted and a
// candidate below pskip is skipped: the posterior gives its label less
// than pskip, so it is more likely mislabelled than informative, and
// including it would make |A| grow with the noise rate times N. With a
// budget, if the kept and included points exceed it, the budget best of
// them by boundaryKey stay (cavity probabilities for active points, predictive
// ones for candidates; ties go to active points, then by position). If
// the rule would delete every active point and include none, no point is
// deleted, so that A never becomes empty. With a floor (rule.keepFloor,
// set with a budget), p_del leaves at least that many active points.
func passUpdate(cav, q []float64, r rule) update {
	u := update{keep: make([]bool, len(cav))}
	kept := 0
	for i, p := range cav {
		switch {
		case p < r.pskip:
			u.noise++
		case r.pdel >= 1 || p <= r.pdel:
			u.keep[i] = true
			kept++
		}
	}
	if floor := r.keepFloor(len(cav)); kept < floor {
		kept += u.restore(cav, r, floor-kept)
	}
	for i, p := range q {
		switch {
		case p < r.pskip:
			u.skipped++
		case r.pinc >= 1 || p < r.pinc:
			u.incl = append(u.incl, i)
		}
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
		u.noise = 0
	}
	return u
}

// keepFloor returns the fewest of m active points that p_del may leave:
// rule.floor, or a tenth of them if more (0 without a floor).
func (r rule) keepFloor(m int) int {
	if r.floor == 0 {
		return 0
	}
	return max(r.floor, m/keepFloorShare)
}

// restore keeps up to n more of the active points that p_del deleted
// (not those deleted as noise), lowest cavity probability first, and
// returns how many it kept. It is PASS-GP's floor (rule.keepFloor): when
// nearly every active point is deletable, each is predicted by the others,
// and deleting them together leaves a posterior near the prior, under
// which every candidate of the next batch has q near 1/2 < p_inc and comes
// in. On the Shuttle data's rarest classes (7 of 40,600 training points)
// the active set swung so between 1 and 2000 points, an EP run on 2000
// points each time (docs/method.md).
func (u *update) restore(cav []float64, r rule, n int) int {
	var del []int
	for i, p := range cav {
		if !u.keep[i] && p >= r.pskip {
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
// points of largest cavity predictive probability for the k candidates
// of smallest predictive probability (the paper's), k limited by the candidates available. With pskip > 0, active
// points whose cavity probability is below pskip are deleted as well
// (counting towards the k when there are fewer), candidates below pskip
// are never included, and the active set is refilled up to its size m
// from the eligible candidates. Ties are broken by position, so the rule
// is deterministic.
func swapUpdate(cav, q []float64, r rule) update {
	u := update{keep: make([]bool, len(cav))}
	kept := 0
	for i, p := range cav {
		if p < r.pskip {
			u.noise++
			continue
		}
		u.keep[i] = true
		kept++
	}
	var elig []int
	for i, p := range q {
		if p < r.pskip {
			u.skipped++
			continue
		}
		elig = append(elig, i)
	}
	m := len(cav)
	if r.pskip > 0 {
		m = max(r.budget, m)
	}
	// Delete k − noise more (the largest cavity probabilities), but never
	// more than the eligible candidates can replace.
	k := min(r.swaps, len(cav), len(q))
	extra := min(max(k-u.noise, 0), max(len(elig)-(m-kept), 0))
	if extra > 0 {
		del := argsort(cav)
		for j := len(del) - 1; j >= 0 && extra > 0; j-- {
			if i := del[j]; u.keep[i] {
				u.keep[i] = false
				kept--
				extra--
			}
		}
	}
	n := min(m-kept, len(elig))
	if n <= 0 {
		return u
	}
	slices.SortStableFunc(elig, func(a, b int) int { return cmp.Compare(q[a], q[b]) })
	u.incl = slices.Clone(elig[:n])
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

// rule returns the batch selection rule of the trainer's stage. The
// retraining with invariances (Options.Augment) keeps the paper's rule:
// its active set is the augmented images of the first stage's.
func (t *trainer) rule() rule {
	r := rule{pinc: t.pinc, pdel: t.c.PDel, swaps: int(math.Round(t.c.PExc * float64(t.c.M)))}
	if !t.stage2 {
		r.pskip = t.c.PSkip
		r.budget = t.c.MaxActive
		if t.c.MaxActive > 0 {
			// The floor belongs with the budget: without one, the
			// paper's rule exactly.
			r.floor = t.c.Init / keepFloorShare
		}
		if t.method == FPASSGP {
			r.budget = t.c.M
		}
	}
	return r
}

// keepFloorShare sets PASS-GP's floor on the active points that p_del
// leaves in a batch (update.restore, rule.keepFloor): Init/keepFloorShare
// (30 for the default N_init = 300), or that share of the batch's active
// set if more. On the judged tasks no batch keeps fewer than 64 points or
// 21% of them (USPS), so their runs are unchanged.
const keepFloorShare = 10

// budgetBatchFactor caps the candidates a batch offers a full budget at
// this many times MaxActive. With many more, the budget's ranking would
// keep the thinnest shell of points around the current boundary, whose
// labels are nearly random, and the evidence on such an active set
// collapses (the signal variance goes to its lower bound); measured on the
// noisy synth task: a batch of 20 times the budget gave 16.2% test error
// against 7.1% for batches of 2 times (docs/method.md).
const budgetBatchFactor = 5

// budgetCandidates returns the candidates of the current batch that PASS-GP
// scores, and how many it leaves out: all of them, unless MaxActive is set
// and the batch holds more than budgetBatchFactor·MaxActive, in which case
// a window of that many, shifted by the pass so that every pass sees
// other points (the batch is already in random order).
func (t *trainer) budgetCandidates(cand []int) ([]int, int) {
	k := budgetBatchFactor * t.c.MaxActive
	if t.stage2 || t.method != PASSGP || t.c.MaxActive == 0 || len(cand) <= k {
		return cand, 0
	}
	start := (t.st.Pass * k) % len(cand)
	out := make([]int, 0, k)
	for i := 0; i < k; i++ {
		out = append(out, cand[(start+i)%len(cand)])
	}
	return out, len(cand) - k
}
