package passgp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/score"
)

// Train trains a binary classifier on the rows of x with labels y (±1)
// by the method of o (nil: PASS-GP with the paper's USPS settings). When
// ctx is cancelled, training stops before the next batch and Train
// returns the partial result (a classifier on the current active set) with
// ctx.Err().
func Train(ctx context.Context, x *mat.Dense, y []float64, o *Options) (*Result, error) {
	return TrainRows(ctx, DenseRows(x), y, o)
}

// TrainRows is Train on the inputs x read through Rows (DenseRows for a
// matrix; a data file served from disk): training reads only a batch, the
// active set or a chunk of the held-out pass at a time, and gives the
// model Train gives on the same rows, bit for bit.
func TrainRows(ctx context.Context, x Rows, y []float64, o *Options) (*Result, error) {
	c, err := checkInput(ctx, x, y, o)
	if err != nil {
		return nil, err
	}
	res, err := train(ctx, x, y, &c, newRunner(c.threads), "")
	return fitBinary(res, y, err)
}

// fitBinary fits res's binary calibration on its held-out latents (labels
// y at HeldOutRows) where training ended (err nil); TrainMulti fits one
// calibration of all its classifiers instead (MultiResult.Calibration).
func fitBinary(res *Result, y []float64, err error) (*Result, error) {
	if err != nil || res.HeldOut == nil {
		return res, err
	}
	truth := calib.BinaryTruth(Gather(y, res.HeldOutRows))
	res.Calibration, err = calib.Fit(mat.NewDense(len(truth), 1, res.HeldOut), mat.NewDense(len(truth), 1, res.HeldOutShare), truth)
	return res, err
}

func checkInput(ctx context.Context, x Rows, y []float64, o *Options) (config, error) {
	n, d := x.Dims()
	if len(y) != n {
		return config{}, fmt.Errorf("passgp: %d labels for %d rows", len(y), n)
	}
	if n > math.MaxInt32 {
		return config{}, fmt.Errorf("passgp: %d rows, more than the %d a batch order numbers (State.Perm)", n, math.MaxInt32)
	}
	var pos int
	for i, v := range y {
		if v != 1 && v != -1 {
			return config{}, fmt.Errorf("passgp: label %d is %v, want ±1", i, v)
		}
		if v == 1 {
			pos++
		}
	}
	if n > 0 && (pos == 0 || pos == n) {
		return config{}, fmt.Errorf("passgp: all %d labels are %v: a classifier needs both classes", n, y[0])
	}
	if err := score.CheckFinite(ctx, x); err != nil {
		return config{}, fmt.Errorf("passgp: %w", err)
	}
	return resolve(o, d)
}

// train is the default path of one binary classifier, stage by stage
// (docs/method.md): the bounds of θ (Section 3); the active set and its θ
// by the configured method (Section 2), then the invariance stage of
// paper Section 6.3 where configured; the held-out latents and the
// calibration fitted on them (Section 5), at the last batch's θ where the
// final search undid the selection (keepSelection); and, where PASS-GP's
// budget bound, the FITC posterior over all points, which replaces the
// active set's where its held-out latents predict the labels better
// (Section 4).
func train(ctx context.Context, x Rows, y []float64, c *config, r *runner, class string) (*Result, error) {
	if !c.FixedTheta {
		var err error
		if c.lower, c.upper, err = thetaBounds(c, x); err != nil {
			return nil, err
		}
	}
	var res *Result
	var err error
	n, _ := x.Dims()
	held := c.HeldOutRows(n)
	switch c.Method {
	case PASSGP, FPASSGP:
		res, err = newTrainer(x, y, c, r, class).run(ctx)
	case IVM:
		var xd *mat.Dense
		if xd, err = asDense(x); err == nil {
			res, err = trainIVM(ctx, xd, y, c, r)
		}
	case Random:
		res, err = trainRandom(ctx, x, y, c, r)
	case Full:
		res, err = trainFull(ctx, x, y, c, r)
	}
	if err == nil && c.Augment != nil {
		res, err = augmentRetrain(ctx, c, r, class, res)
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return res, err
	}
	if err = setHeldOut(ctx, r, res, x, y, c.geom(), held); err != nil {
		return res, err
	}
	if res, err = keepSelection(ctx, c, r, res, x, y, held); err != nil || !c.boundFITC(res.Batches) {
		return res, err
	}
	return res, boundPass(ctx, c, r, res, x, y, held)
}

// setHeldOut sets res's held-out latents of the training points held of
// (x, y) (nil: all; HeldOutRows), on which the calibration is fitted
// (fitBinary, MultiResult.Calibration), and their error rates; g is the
// invariance stage's geometry (nil: none; with g, held must be nil).
func setHeldOut(ctx context.Context, r *runner, res *Result, x Rows, y []float64, g *shiftGeom, held []int) error {
	xh, yh, bh := HeldView(x, y, res.Model, held)
	var err error
	if res.HeldOut, res.HeldOutShare, res.HeldOutLost, err = heldOutLatents(ctx, r, bh, xh, g); err != nil {
		return err
	}
	res.HeldOutRows = held
	res.HeldOutError = LatentErrorRate(res.HeldOut, yh)
	res.MajorityRate = majorityRate(calib.BinaryTruth(yh))
	return nil
}

// trainer runs paper Algorithm 1.
type trainer struct {
	c      *config
	r      *runner
	x      Rows
	y      []float64
	n, d   int
	class  string
	st     State
	k      kernel.Kernel
	inA    []bool
	start  time.Time
	evals  int
	theta0 []float64
}

func newTrainer(x Rows, y []float64, c *config, r *runner, class string) *trainer {
	n, d := x.Dims()
	return &trainer{c: c, r: r, x: x, y: y, n: n, d: d, class: class, k: c.Kernel}
}

// initState draws the initial active set and the batches from the seed.
func (t *trainer) initState() {
	rng := initRNG(t.c.Seed)
	a := t.initialActive(rng)
	perm, bounds := splitBatches(rng, t.n, t.c.Sub)
	t.st = State{Method: t.c.Method, N: t.n, D: t.d, Theta: t.k.Params(), Active: a,
		Tau: make([]float64, len(a)), Nu: make([]float64, len(a)), Perm: perm, Bounds: bounds}
}

// initialActive draws the initial active set, N_init points (M for
// fPASS-GP, at most n), as the first draw of rng, a fresh initRNG.
func (t *trainer) initialActive(rng *rand.Rand) []int {
	size := t.c.Init
	if t.c.Method == FPASSGP {
		size = t.c.M
	}
	return permPrefix(rng, t.n, size)
}

// initRNG returns the generator of a run's initial active set (its first
// draw) and batches.
func initRNG(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
}

// permPrefix returns rng.Perm(n)[:min(k, n)] without holding a []int
// permutation of n (perm32).
func permPrefix(rng *rand.Rand, n, k int) []int {
	p := perm32(rng, n)[:min(k, n)]
	out := make([]int, len(p))
	for j, i := range p {
		out[j] = int(i)
	}
	return out
}

// perm32 is rng.Perm(n) (the same permutation for the same rng) in
// 32-bit integers, half the memory of a permutation of N = 10⁸ points.
func perm32(rng *rand.Rand, n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// splitBatches splits 0..n-1 into sub disjoint random batches of nearly
// equal size (paper Algorithm 1, SplitData).
func splitBatches(rng *rand.Rand, n, sub int) (perm []int32, bounds []int) {
	perm = perm32(rng, n)
	sub = max(min(sub, n), 1)
	bounds = make([]int, sub+1)
	for j := range bounds {
		bounds[j] = j * n / sub
	}
	return perm, bounds
}

func (t *trainer) resume(s *State) error {
	if err := s.Check(t.n, t.d); err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	if s.Method != t.c.Method {
		return fmt.Errorf("passgp: resume state is for method %v, training %v", s.Method, t.c.Method)
	}
	if len(s.Theta) != len(t.k.Params()) {
		return fmt.Errorf("passgp: resume state has %d hyperparameters, kernel %s takes %d", len(s.Theta), t.k.Name(), len(t.k.Params()))
	}
	t.st = cloneState(s)
	t.k = t.k.WithParams(t.st.Theta)
	return nil
}

func cloneState(s *State) State {
	c := *s
	c.Theta = slices.Clone(s.Theta)
	c.Active = slices.Clone(s.Active)
	c.Tau = slices.Clone(s.Tau)
	c.Nu = slices.Clone(s.Nu)
	c.Perm = slices.Clone(s.Perm)
	c.Bounds = slices.Clone(s.Bounds)
	c.Stats = slices.Clone(s.Stats)
	return c
}

func (t *trainer) run(ctx context.Context) (*Result, error) {
	t.theta0 = t.k.Params()
	if t.c.Resume != nil {
		if err := t.resume(t.c.Resume); err != nil {
			return nil, err
		}
	} else {
		t.initState()
	}
	return t.loop(ctx)
}

func (t *trainer) loop(ctx context.Context) (*Result, error) {
	t.start = time.Now()
	t.inA = make([]bool, t.n)
	nsub := len(t.st.Bounds) - 1
	total := t.c.Passes * nsub
	for t.st.Pass < t.c.Passes {
		if err := ctx.Err(); err != nil {
			return t.stopped(err)
		}
		if err := t.batch(ctx); err != nil {
			if cerr := ctx.Err(); cerr != nil {
				// Cancelled inside the batch: the state is the last batch's.
				return t.stopped(cerr)
			}
			return nil, err
		}
		t.st.Batch++
		if t.st.Batch == nsub {
			t.st.Batch = 0
			t.st.Pass++
		}
		t.st.Done++
		el := t.elapsed()
		if t.c.Progress != nil {
			done := t.st.Pass*nsub + t.st.Batch
			last := t.st.Stats[len(t.st.Stats)-1]
			rem := time.Duration(0)
			if done > 0 {
				rem = time.Duration(float64(el) / float64(done) * float64(total-done))
			}
			t.c.Progress(Progress{Class: t.class, Pass: last.Pass, Passes: t.c.Passes, Batch: last.Batch,
				Batches: nsub, Active: len(t.st.Active), Included: last.Included, Deleted: last.Deleted,
				LogZ: last.LogZ, Theta: slices.Clone(last.Theta),
				Elapsed: el, Remaining: rem})
		}
		if t.c.Checkpoint != nil {
			s := cloneState(&t.st)
			s.Elapsed = el
			t.c.Checkpoint(&s)
		}
	}
	return t.finish(ctx)
}

// stopped returns the partial result of a run whose context ended with
// err: the classifier at the sites of the last completed batch, built
// without iterating EP (one factorisation), so that cancellation takes
// effect at once.
func (t *trainer) stopped(err error) (*Result, error) {
	xa, ya, rerr := t.active()
	if rerr != nil || len(ya) == 0 {
		return nil, errors.Join(err, rerr)
	}
	b, ferr := newBinary(t.k, xa, ya, slices.Clone(t.st.Active), ep.Sites{Tau: slices.Clone(t.st.Tau), Nu: slices.Clone(t.st.Nu)})
	if ferr != nil {
		return nil, errors.Join(err, ferr)
	}
	return &Result{Model: b, Batches: t.st.Stats, Elapsed: t.elapsed(), Theta0: t.theta0, Evals: t.evals,
		AtBound: lastAtBound(t.st.Stats)}, err
}

func (t *trainer) elapsed() time.Duration { return t.st.Elapsed + time.Since(t.start) }

// active reads the active inputs and gathers their labels.
func (t *trainer) active() (*mat.Dense, []float64, error) {
	xa, err := readRows(t.x, t.st.Active)
	return xa, gather(t.y, t.st.Active), err
}

// infer runs EP on A from the current sites, after optimising θ in at
// most evals evaluations of log Z_EP where evals > 0. It returns the
// posterior and fills the stats' timings.
func (t *trainer) infer(ctx context.Context, xa *mat.Dense, ya []float64, evals int, epo ep.Options, bs *BatchStats) (*ep.Posterior, error) {
	warm := &ep.Sites{Tau: slices.Clone(t.st.Tau), Nu: slices.Clone(t.st.Nu)}
	var post *ep.Posterior
	if evals > 0 {
		t0 := time.Now()
		res, err := ep.OptimizeContext(ctx, t.k, xa, ya, warm, t.c.optimizeOptions(evals, epo))
		bs.HypTime = time.Since(t0)
		if err != nil {
			return nil, fmt.Errorf("passgp: hyperparameter optimisation: %w", err)
		}
		t.k = res.Kernel
		bs.HypEvals = res.Evals
		bs.HypNotConverged = res.NotConvergedEvals
		bs.AtBound = slices.Clone(res.AtBound)
		t.evals += res.Evals
		if res.Post != nil && slices.Equal(res.Post.Kernel.Params(), t.k.Params()) {
			post = res.Post
			bs.EPSweeps = post.Sweeps
			bs.NotConverged = res.NotConverged
		}
	}
	if post == nil {
		t0 := time.Now()
		p, err := ep.InferContext(ctx, t.k, xa, ya, warm, &epo)
		bs.EPTime = time.Since(t0)
		var nc *ep.NotConvergedError
		switch {
		case errors.As(err, &nc) && nc.Post != nil:
			p = nc.Post
			bs.NotConverged = true
		case err != nil:
			return nil, fmt.Errorf("passgp: EP on the active set (%d points): %w", len(ya), err)
		}
		post = p
		bs.EPSweeps = p.Sweeps
	}
	return post, nil
}

// searched reports whether θ was optimised on the current active set: no
// batch has changed A since the last batch that optimised θ. A search
// there would continue on the objective the last one ended on, which the
// final search, with more evaluations, does (docs/method.md, Section 3).
func searched(stats []BatchStats) bool {
	for _, b := range slices.Backward(stats) {
		if b.Included > 0 || b.Deleted > 0 {
			return false
		}
		if b.HypEvals > 0 {
			return true
		}
	}
	return false
}

// batch processes batch t.st.Batch of pass t.st.Pass (paper Algorithm 1,
// inner loop body).
func (t *trainer) batch(ctx context.Context) error {
	bs := BatchStats{Pass: t.st.Pass, Batch: t.st.Batch}
	xa, ya, err := t.active()
	if err != nil {
		return err
	}
	evals := 0
	if !t.c.FixedTheta && !t.st.Frozen && t.st.Done%t.c.HypEvery == 0 && t.st.Pass < t.c.hypPasses() && !searched(t.st.Stats) {
		evals = hypMaxEvals
		if t.st.Done == 0 {
			// The first optimisation starts from the initial θ, not from
			// a previous optimum: give it room to get close.
			evals *= 3
		}
	}
	epo := t.c.epOptions()
	if t.st.Frozen && adfSites {
		// The new points start at their ADF sites (below) and the others
		// at the last batch's, so one sweep can show convergence, and the
		// start is good even where its log Z_EP is below zero sites'.
		if epo.MinSweeps == 0 {
			epo.MinSweeps = 1
		}
		epo.KeepWarm = true
	}
	post, err := t.infer(ctx, xa, ya, evals, epo, &bs)
	if err != nil {
		return err
	}
	bs.LogZ = post.LogZ
	bs.Theta = t.k.Params()
	t.st.Theta = t.k.Params()

	t0 := time.Now()
	sc, err := t.score(ctx, post, xa, &bs)
	if err != nil {
		return err
	}
	var u update
	switch t.c.Method {
	case PASSGP:
		u = passUpdate(sc.cav, sc.q, t.rule())
	case FPASSGP:
		u = swapUpdate(sc.cav, sc.q, t.rule())
	}
	if u.trimmed && !t.st.Frozen {
		if th := keptTheta(append(t.st.Stats, bs)); th != nil {
			t.k = t.k.WithParams(th)
			t.st.Theta = th
		}
	}
	t.st.Frozen = t.st.Frozen || u.trimmed
	bs.Trimmed = u.trimmed
	t.apply(u, post.Sites, sc, &bs)
	bs.ScoreTime = time.Since(t0)
	t.st.Stats = append(t.st.Stats, bs)
	return nil
}

// batchScores are a batch's scores: the cavity probabilities cav of the
// active points, and the candidates cand with their predictive means,
// variances and probabilities of their labels.
type batchScores struct {
	cav, mean, vr, q []float64
	cand             []int
}

// score scores the active points and the candidates of the current batch
// under post (the posterior of the active inputs xa).
func (t *trainer) score(ctx context.Context, post *ep.Posterior, xa *mat.Dense, bs *BatchStats) (*batchScores, error) {
	sc := &batchScores{cav: make([]float64, len(t.st.Active))}
	post.CavityProbTo(sc.cav)
	for _, a := range t.st.Active {
		t.inA[a] = true
	}
	var cand []int
	for _, i := range t.st.Perm[t.st.Bounds[t.st.Batch]:t.st.Bounds[t.st.Batch+1]] {
		if !t.inA[i] {
			cand = append(cand, int(i))
		}
	}
	for _, a := range t.st.Active {
		t.inA[a] = false
	}
	cand, bs.Unscored = t.budgetCandidates(cand)
	sc.cand = cand
	sc.mean, sc.vr = make([]float64, len(cand)), make([]float64, len(cand))
	if err := t.r.scoreRows(ctx, post, t.k, xa, t.x, cand, sc.mean, sc.vr, t.screen()); err != nil {
		return nil, err
	}
	sc.q = make([]float64, len(cand))
	for i, n := range cand {
		sc.q[i] = score.Prob(t.y[n], sc.mean[i], sc.vr[i])
		if sc.q[i] < 0.5 {
			bs.Wrong++
		}
	}
	bs.Scored = len(cand)
	// ep guards the cavities and the predictive variances; a NaN that
	// still got through would silently delete a point (NaN <= p_del is
	// false) or scramble fPASS-GP's sort.
	if i := slices.IndexFunc(sc.cav, math.IsNaN); i >= 0 {
		return nil, fmt.Errorf("passgp: cavity probability of active point %d is NaN", t.st.Active[i])
	}
	if i := slices.IndexFunc(sc.q, math.IsNaN); i >= 0 {
		return nil, fmt.Errorf("passgp: predictive probability of point %d is NaN", cand[i])
	}
	return sc, nil
}

// apply makes the rule's update u the new active set: the kept points with
// their sites s, then the included candidates, which start at zero sites
// or, once θ is frozen, at their ADF sites (adfSites). It records the
// counts in bs.
func (t *trainer) apply(u update, s ep.Sites, sc *batchScores, bs *BatchStats) {
	var active []int
	var tau, nu []float64
	for i, a := range t.st.Active {
		if u.keep[i] {
			active = append(active, a)
			tau = append(tau, s.Tau[i])
			nu = append(nu, s.Nu[i])
		}
	}
	bs.Deleted = len(t.st.Active) - len(active)
	for _, i := range u.incl {
		n := sc.cand[i]
		active = append(active, n)
		var tt, tn float64
		if t.st.Frozen && adfSites {
			tt, tn = adfSite(t.y[n], sc.mean[i], sc.vr[i], t.c.EP.Flip)
		}
		tau = append(tau, tt)
		nu = append(nu, tn)
	}
	bs.Included = len(u.incl)
	bs.Active = len(active)
	t.st.Active, t.st.Tau, t.st.Nu = active, tau, nu
}

// screenScores switches the screen (score.Screen) on; tests compare runs
// without it.
var screenScores = true

// screen returns the screen of this batch's scoring (nil: score every
// candidate fully): PASS-GP's rule with a p_inc below 1.
func (t *trainer) screen() *score.Screen {
	r := t.rule()
	if !screenScores || t.c.Method != PASSGP || r.pinc >= 1 {
		return nil
	}
	return &score.Screen{Y: t.y, PInc: r.pinc}
}

// finish optimises θ on the final active set (unless θ is fixed or was
// fixed in the last pass), runs EP on it to the final tolerance and builds
// the classifier with ep.FromSites. If ctx ends meanwhile, the result is
// stopped's.
func (t *trainer) finish(ctx context.Context) (*Result, error) {
	xa, ya, err := t.active()
	if err != nil {
		return nil, err
	}
	bs := BatchStats{Pass: t.st.Pass, Batch: t.st.Batch}
	optimise := !t.c.FixedTheta && !t.st.Frozen && t.c.hypPasses() >= t.c.Passes
	evals := 0
	if optimise {
		evals = finalHypEvals
	}
	post, err := t.infer(ctx, xa, ya, evals, t.c.finalEPOptions(), &bs)
	if cerr := ctx.Err(); err != nil && cerr != nil {
		return t.stopped(cerr)
	}
	if err != nil {
		return nil, err
	}
	b, err := newBinary(t.k, xa, ya, slices.Clone(t.st.Active), post.Sites)
	if err != nil {
		return nil, err
	}
	atBound := bs.AtBound // set when θ was optimised here
	if !optimise {
		atBound = lastAtBound(t.st.Stats)
	}
	return &Result{Model: b, Batches: t.st.Stats, Elapsed: t.elapsed(), Theta0: t.theta0, Evals: t.evals, AtBound: atBound,
		NotConverged: bs.NotConverged, HypNotConverged: hypNotConverged(t.st.Stats) + bs.HypNotConverged}, nil
}

// lastAtBound returns AtBound of the last batch that optimised θ (nil if
// none did): the optimisation that set the current θ.
func lastAtBound(stats []BatchStats) []bool {
	for _, b := range slices.Backward(stats) {
		if b.AtBound != nil {
			return b.AtBound
		}
	}
	return nil
}

// gatherRows returns the rows idx of x as a new matrix.
func gatherRows(x *mat.Dense, idx []int) *mat.Dense {
	_, d := x.Dims()
	raw := x.RawMatrix()
	out := make([]float64, max(len(idx), 1)*d)
	for k, i := range idx {
		copy(out[k*d:(k+1)*d], raw.Data[i*raw.Stride:i*raw.Stride+d])
	}
	if len(idx) == 0 {
		return nil
	}
	return mat.NewDense(len(idx), d, out)
}

func gather[T any](v []T, idx []int) []T {
	out := make([]T, len(idx))
	for k, i := range idx {
		out[k] = v[i]
	}
	return out
}
