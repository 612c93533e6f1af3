package passgp

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/data"
)

// TrainAugmented runs the invariance stage of paper Section 6.3 on a
// trained binary classifier b (from Train or TrainMulti): b's active
// images and their o.Augment.Shifts (4 or 8) one-pixel translations form
// a new training set of (1+Shifts)·|A| points, on which PASS-GP continues
// from b's active set and sites with b's θ fixed and p_inc =
// o.Augment.PInc, in o.Augment.Sub batches and o.Augment.Passes passes
// (zero: o.Sub and o.Passes; Seed, Threads, EP
// and Progress as in Train). o.Method, Kernel and FixedTheta are ignored
// (the stage is PASS-GP at b's kernel and θ); o.Checkpoint and o.Resume
// must be nil. Train with o.Augment runs both stages in one call;
// TrainAugmented lets one first stage serve several second stages. The
// result's Active holds b's indices into the original training data for
// original images and −1 for translated ones; its Batches, Elapsed and
// Evals are those of the second stage alone. x and y are the first
// stage's training data (the rows b.Active indexes): the result's
// HeldOut, Calibration, HeldOutError and MajorityRate are Train's, with
// the held-out latent of each of b's active images taken without the
// sites of its translations too (groupHeldOut).
func TrainAugmented(ctx context.Context, b *Binary, x *mat.Dense, y []float64, o *Options) (*Result, error) {
	if o == nil || o.Augment == nil {
		return nil, errors.New("passgp: TrainAugmented needs Options.Augment")
	}
	if o.Checkpoint != nil || o.Resume != nil {
		return nil, errors.New("passgp: TrainAugmented does not checkpoint or resume")
	}
	n, d := x.Dims()
	if _, bd := b.X.Dims(); bd != d || len(y) != n {
		return nil, fmt.Errorf("passgp: TrainAugmented: %d×%d data with %d labels for a classifier of %d features", n, d, len(y), bd)
	}
	for _, a := range b.Active {
		if a < 0 || a >= n {
			return nil, fmt.Errorf("passgp: TrainAugmented: active index %d outside the %d training rows", a, n)
		}
	}
	oc := *o
	oc.Method, oc.Kernel, oc.FixedTheta = PASSGP, b.Kernel, true
	c, err := resolve(&oc, d)
	if err != nil {
		return nil, err
	}
	r := newRunner(c.threads)
	res, err := augmentStage(ctx, b, &c, r, "")
	if err == nil {
		err = setHeldOut(ctx, r, res, DenseRows(x), y, c.geom(), nil)
	}
	return fitBinary(res, y, err)
}

// augmentStage is the second stage of TrainAugmented, with c's
// invariance stage (c.Augment: schedule, p_inc and image geometry).
func augmentStage(ctx context.Context, b *Binary, c *config, r *runner, class string) (*Result, error) {
	m := len(b.Active)
	a := c.Augment
	xa, ya := data.AugmentShifts(b.X, b.Y, a.ImageW, a.ImageH, a.Shifts)
	// The paper's rule at b's θ, without a budget: the stage's training
	// set is bounded by the first stage's active set.
	c2 := *c
	c2.Method, c2.FixedTheta, c2.Kernel, c2.PInc = PASSGP, true, b.Kernel, a.PInc
	c2.Sub, c2.Passes, c2.MaxActive, c2.Checkpoint = a.Sub, a.Passes, 0, nil
	rng := rand.New(rand.NewPCG(c.Seed+1, c.Seed^0x2545f4914f6cdd1d))
	na, d := xa.Dims()
	perm, bounds := splitBatches(rng, na, c2.Sub)
	act := make([]int, m)
	for i := range act {
		act[i] = i // data.AugmentShifts puts the original rows first
	}
	c2.Resume = &State{Method: PASSGP, N: na, D: d, Theta: b.Kernel.Params(), Active: act,
		Tau: b.Post.Sites.Tau, Nu: b.Post.Sites.Nu, Perm: perm, Bounds: bounds}
	res, err := newTrainer(DenseRows(xa), ya, &c2, r, class).run(ctx)
	if res == nil {
		return nil, err
	}
	for i := range res.Batches {
		res.Batches[i].Augmented = true
	}
	// Map active indices back to the original training data.
	for i, a := range res.Model.Active {
		if a < m {
			res.Model.Active[i] = b.Active[a]
		} else {
			res.Model.Active[i] = -1
		}
	}
	return res, err
}

// augmentRetrain is Train's invariance stage (Options.Augment): the second
// stage on the first stage's classifier, with the first stage's batches,
// time and evaluations included in the result.
func augmentRetrain(ctx context.Context, c *config, r *runner, class string, first *Result) (*Result, error) {
	res, err := augmentStage(ctx, first.Model, c, r, class)
	if res == nil {
		return first, err
	}
	res.Batches = append(slices.Clone(first.Batches), res.Batches...)
	res.Elapsed += first.Elapsed
	res.Theta0, res.Evals, res.AtBound = first.Theta0, first.Evals, first.AtBound
	res.HypNotConverged += first.HypNotConverged
	return res, err
}

// shiftGeom is the image geometry of an invariance stage: translations
// of w×h images in dirs (4 or 8) directions. A nil *shiftGeom means no
// invariance stage.
type shiftGeom struct{ w, h, dirs int }

// geom returns c's invariance geometry, or nil without one.
func (c *config) geom() *shiftGeom {
	if c.Augment == nil {
		return nil
	}
	return &shiftGeom{c.Augment.ImageW, c.Augment.ImageH, c.Augment.Shifts}
}

// translationGroups finds the training points of x (N×w·h) whose
// translations by g are active points of the invariance-stage classifier b
// (Active −1, rows of b.X), by content (hashed, equal rows matched
// exactly), so that it serves a classifier from a checkpoint too. For each
// such point i it returns i, its own position in b's active set (−1 if not
// active) and the positions of its own site and of its translations'
// sites: the group that ep.Posterior.LeaveOutTo divides out.
func translationGroups(b *Binary, x *mat.Dense, g *shiftGeom) (rows, self []int, groups [][]int) {
	n, d := x.Dims()
	seed := maphash.MakeSeed()
	buf := make([]byte, 0, 8*d)
	hash := func(v []float64) uint64 {
		buf = buf[:0]
		for _, f := range v {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(f))
		}
		return maphash.Bytes(seed, buf)
	}
	shifted := make(map[uint64][]int)
	pos := make(map[int]int)
	for k, a := range b.Active {
		if a < 0 {
			h := hash(b.X.RawRowView(k))
			shifted[h] = append(shifted[h], k)
		} else {
			pos[a] = k
		}
	}
	if len(shifted) == 0 {
		return nil, nil, nil
	}
	t := make([]float64, d)
	for i := 0; i < n; i++ {
		var grp []int
		for s := 0; s < g.dirs; s++ {
			dx, dy := data.ImageShift(s)
			data.ShiftImageTo(t, x.RawRowView(i), g.w, g.h, dx, dy)
			for _, k := range shifted[hash(t)] {
				if slices.Equal(b.X.RawRowView(k), t) && !slices.Contains(grp, k) {
					grp = append(grp, k)
				}
			}
		}
		if len(grp) == 0 {
			continue
		}
		me, ok := pos[i]
		if !ok {
			me = -1
		} else {
			grp = append(grp, me)
		}
		rows, self, groups = append(rows, i), append(self, me), append(groups, grp)
	}
	return rows, self, groups
}

// groupHeldOut returns, for the training points of x whose translations
// are in the invariance-stage classifier b's active set
// (translationGroups), the held-out latent marginal of b's posterior
// without the sites of the point and of all its translations
// (ep.Posterior.LeaveOutTo): a plain cavity would still see the point's
// translations, near copies with its label, and a calibration fitted on
// it would be over-confident at the hard points. A marginal lost to
// rounding gets the prior's (mean 0, variance +Inf) and is counted in
// lost. Chunks of groupChunk points bound the memory to
// O(groupChunk·(1+dirs)·|A|).
func groupHeldOut(ctx context.Context, b *Binary, x *mat.Dense, g *shiftGeom) (z map[int]meanVar, lost int, err error) {
	rows, self, groups := translationGroups(b, x, g)
	_, d := x.Dims()
	z = make(map[int]meanVar, len(rows))
	const groupChunk = 64
	for lo := 0; lo < len(rows); lo += groupChunk {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		hi := min(lo+groupChunk, len(rows))
		qs := mat.NewDense(hi-lo, d, nil)
		for k, i := range rows[lo:hi] {
			qs.SetRow(k, x.RawRowView(i))
		}
		mean, vr := make([]float64, hi-lo), make([]float64, hi-lo)
		b.Post.LeaveOutTo(mean, vr, qs, self[lo:hi], groups[lo:hi]) // NaN rows: lost
		for k, i := range rows[lo:hi] {
			// A lost marginal is the prior's: latent 0, all the prior
			// variance (share 1 in priorShares).
			mv := meanVar{0, math.Inf(1)}
			if math.IsNaN(mean[k]) {
				lost++
			} else {
				mv = meanVar{mean[k], vr[k]}
			}
			z[i] = mv
		}
	}
	return z, lost, nil
}
