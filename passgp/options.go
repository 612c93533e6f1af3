package passgp

import (
	"cmp"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
)

// Method selects the active set method.
type Method int

const (
	PASSGP  Method = iota // thresholds p_inc, p_del (paper Algorithm 1)
	FPASSGP               // fixed M, swap round(p_exc·M) points per batch
	IVM                   // greedy differential-entropy selection with ADF updates
	Random                // a random active set of size M
	Full                  // EP on all points
)

var methodNames = [...]string{"passgp", "fpassgp", "ivm", "random", "full"}

func (m Method) String() string {
	if m < 0 || int(m) >= len(methodNames) {
		return fmt.Sprintf("Method(%d)", int(m))
	}
	return methodNames[m]
}

// ParseMethod is the inverse of Method.String (case-insensitive; "pass-gp"
// and "fpass-gp" are accepted too).
func ParseMethod(s string) (Method, error) {
	t := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "")
	for i, n := range methodNames {
		if t == n {
			return Method(i), nil
		}
	}
	return 0, fmt.Errorf("passgp: unknown method %q (want passgp, fpassgp, ivm, random or full)", s)
}

// Options configures Train and TrainMulti. Zero values mean the paper's
// USPS settings (Section 6.1).
type Options struct {
	Method Method
	// Kernel is the initial covariance function and θ. nil means DefaultKernel
	// for the method and the data.
	Kernel kernel.Kernel
	// Fixed marks θ components (paper order) that are not optimised.
	Fixed []bool
	// FixedTheta disables hyperparameter optimisation altogether.
	FixedTheta bool
	// Lower and Upper bound θ (not log θ) in the optimisation. nil Lower
	// means ep's default bounds except, for the SE kernels, a floor on the
	// squared length scale t2 of the inputs' median squared distance / 20
	// (see thetaBounds); nil Upper means ep's default.
	Lower, Upper []float64

	Init   int // N_init (0 -> InitSize: 300, at most half of MaxActive)
	Sub    int // N_sub (0 -> 10), number of disjoint batches
	Passes int // N_pass (0 -> 2 PASS-GP, 4 fPASS-GP, 8 IVM alternations)

	PInc, PDel, PExc float64 // 0 -> 0.6, 0.99, 0.02

	// M is the active set size of fPASS-GP, IVM and Random (0 -> Init).
	M int

	// MaxActive bounds PASS-GP's |A| (0: no bound, the paper's; train's
	// default is SqrtBudget): when the kept and included points of a batch
	// exceed it, those closest to the decision boundary stay (boundaryKey),
	// so a pass costs O(N·MaxActive²); past BudgetCap A grows only while
	// the first pass's error falls (trainer.budget). Once it binds, θ stays
	// at keptTheta. With it p_del leaves at least half of Init or of the
	// budget, and p_inc at most doubles A (passUpdate; docs/method.md,
	// Section 2). The invariance stage (Augment) has no budget.
	MaxActive int
	// HypEvery optimises θ on every k-th batch only (0 -> 1, every batch).
	HypEvery int
	// EP configures every EP run. A zero Tol means DefaultEPTol inside the
	// active set loop (the final posterior is always refined to ep's own
	// default tolerance or tighter).
	EP ep.Options

	// Augment, if not nil, adds the invariance stage (paper Section 6.3)
	// after the first.
	Augment *Augmentation

	// BoundFITC, if positive, bounds the number of inducing inputs (a
	// seeded random subset of the active set, at most half the budget) of
	// the FITC posterior that competes with the active set's where
	// PASS-GP's budget bound (without Augment): boundPass,
	// Result.BoundFITC and docs/method.md, Section 4.
	BoundFITC int

	Seed uint64
	// MaxClasses bounds the distinct labels that TrainMulti accepts (0:
	// DefaultMaxClasses): a file of real-valued regression targets has
	// thousands, each of which would become a classifier.
	MaxClasses int
	// Threads is the number of worker goroutines of the scoring pass and,
	// in TrainMulti, of concurrently trained classes (0 -> la.Threads()).
	// Results are identical for any value. Workers start only while BLAS
	// is single-threaded (la.PoolWorkers); the BLAS thread count is the
	// application's process-wide policy (la.SetThreads), which no call of
	// this package changes.
	Threads int

	Progress   func(Progress) // called after every batch (may be nil)
	Checkpoint func(*State)   // called after every batch with a resumable snapshot
	// Resume continues from a snapshot (nil = fresh start); in TrainMulti
	// it continues class Resume.Class.
	Resume *State

	// Multi controls TrainMulti's run (the zero value: its defaults).
	Multi MultiControl
}

// Augmentation configures the invariance stage of paper Section 6.3:
// PASS-GP retrains at fixed θ on the active images and their one-pixel
// translations. A nil *Augmentation in Options means no such stage.
type Augmentation struct {
	// Shifts is the number of one-pixel translations of every active
	// image: 4 or 8.
	Shifts int
	// ImageW×ImageH must equal the number of features (row-major pixels).
	ImageW, ImageH int
	// PInc is p_inc of the retraining (0 -> DefaultAugmentPInc).
	PInc float64
	// Sub and Passes are N_sub and N_pass of the retraining (0 ->
	// Options.Sub and Options.Passes, as the paper); each batch costs an
	// EP run on the augmented active set (15000 points on MNIST).
	Sub, Passes int
}

// MultiControl holds TrainMulti's run controls: resumption, a callback
// per finished class and the number of classes trained at once.
type MultiControl struct {
	// Finished holds classes already trained, by class label, as Train
	// returned them: TrainMulti returns them as they are, so that a run
	// can be resumed. The multi-class calibration takes their held-out
	// latents (HeldOut, HeldOutShare, HeldOutLost; Model is required), so
	// a resumed run calibrates as the uninterrupted one; where HeldOut is
	// nil they are computed from the Model's final posterior (for a FITC
	// classifier restored without its training marginals, the active
	// set's).
	Finished map[float64]*Result
	// ClassDone, if not nil, is called when a class has finished
	// training, serialised with Progress and Checkpoint.
	ClassDone func(class float64, r *Result)
	// ClassWorkers, if positive, is the number of classes trained at
	// once (1: one after another, so that at most one class is in
	// progress, as a checkpoint of one State needs); 0 decides by the
	// BLAS thread policy (see TrainMulti).
	ClassWorkers int
}

// Defaults that the paper leaves open (see docs/method.md for how they were
// chosen).
const (
	DefaultInit        = 300
	DefaultSub         = 10
	DefaultPInc        = 0.6
	DefaultPDel        = 0.99
	DefaultPExc        = 0.02
	DefaultAugmentPInc = 0.99
	DefaultEPTol       = 1e-3
	// DefaultMaxFullBytes bounds the n²·8 bytes of one n×n matrix of the
	// full GPC (Method Full, refused beyond it; EP holds several such
	// matrices).
	DefaultMaxFullBytes = int64(1) << 30
)

// Budget rule of SqrtBudget and trainer.budget.
const (
	BudgetFactor = 12
	BudgetCap    = 2000
	BudgetMax    = 2 * BudgetCap
)

// InitSize returns method m's default N_init under the budget maxActive
// (0: none): DefaultInit, but for PASS-GP at most half the budget: an
// initial set that fills the budget leaves the selection nothing to choose
// (docs/method.md, Section 2; chosen on the protocol, docs/decisions.md).
func InitSize(m Method, maxActive int) int {
	if m != PASSGP || maxActive <= 0 {
		return DefaultInit
	}
	return min(DefaultInit, (maxActive+1)/2)
}

// SqrtBudget returns the budget on PASS-GP's active set (Options.MaxActive)
// that train uses for n training points: ⌈BudgetFactor·√n⌉, at most
// BudgetMax. A budget that grows as √n keeps the active set a shrinking
// share of the data (12% at n = 1e4, 5% at MNIST's 60,000), which is what
// makes a sparse method pay; past BudgetCap it must be earned
// (trainer.budget). BudgetMax bounds that growth to a pass of four times
// the cost at BudgetCap, and EP's M×M matrices to 128 MB each.
func SqrtBudget(n int) int {
	if n <= 0 {
		return 0
	}
	return min(BudgetMax, int(math.Ceil(BudgetFactor*math.Sqrt(float64(n)))))
}

// Progress reports the state after a batch.
type Progress struct {
	Class                        string
	Pass, Passes, Batch, Batches int
	Active                       int
	// The batch's counts, as in BatchStats.
	Included, Deleted  int
	LogZ               float64
	Theta              []float64
	Elapsed, Remaining time.Duration
}

// DefaultKernel returns the initial kernel used when Options.Kernel is nil:
// for IVM the SE plus linear covariance the paper ran IVM with (Section
// 6.1), otherwise the SE covariance of paper eq. (rbf). The paper does not
// state its starting θ; we scale the squared length scale with the input
// dimension d (t2 = d/4, which is 64 for USPS's 256 pixels in [-1,1], near
// the optimum found there) and start from t1 = 4, t3 = 1e-2.
func DefaultKernel(m Method, d int) kernel.Kernel {
	name := "se"
	if m == IVM {
		name = "se+lin"
	}
	k, _ := StartKernel(name, d)
	return k
}

// StartKernel returns the kernel called name ("se", "se+lin", "se+bias",
// "seard" or "seard+bias") with DefaultKernel's start values for d inputs:
// the SE part t1 = 4, t2 = d/4, t3 = 1e-2 (for ARD every t2_k = d/4, which
// is the SE start), a linear part 1/d and a bias 1. ok is false
// for other names (poly has no input-scaled start: see kernel.New).
func StartKernel(name string, d int) (k kernel.Kernel, ok bool) {
	se := kernel.SE{Var: 4, Len2: math.Max(float64(d)/4, 1e-3), Jitter: 1e-2}
	switch name {
	case "se":
		return se, true
	case "se+lin":
		return kernel.SELin{SE: se, Lin: 1 / math.Max(float64(d), 1)}, true
	case "se+bias":
		return kernel.SEBias{SE: se, Bias: 1}, true
	case "seard":
		return kernel.NewSEARD(d, se.Var, se.Len2, se.Jitter), true
	case "seard+bias":
		return kernel.SEARDBias{SEARD: kernel.NewSEARD(d, se.Var, se.Len2, se.Jitter), Bias: 1}, true
	}
	return nil, false
}

// config is Options with every default resolved.
type config struct {
	Options
	threads int
	// lower, upper are the θ bounds of the optimisation (thetaBounds).
	lower, upper []float64
}

func resolve(o *Options, d int) (config, error) {
	var c config
	if o != nil {
		c.Options = *o
	}
	if c.Method < PASSGP || c.Method > Full {
		return c, fmt.Errorf("passgp: invalid method %d", int(c.Method))
	}
	if c.Kernel == nil {
		c.Kernel = DefaultKernel(c.Method, d)
	}
	if c.Fixed != nil && len(c.Fixed) != len(c.Kernel.Params()) {
		return c, fmt.Errorf("passgp: Fixed has %d entries, kernel %s has %d hyperparameters", len(c.Fixed), c.Kernel.Name(), len(c.Kernel.Params()))
	}
	if c.Augment != nil {
		a := *c.Augment // setDefaults fills in the copy, not the caller's
		c.Augment = &a
	}
	c.setDefaults()
	if err := c.validate(d); err != nil {
		return c, err
	}
	if err := c.EP.Validate(); err != nil {
		return c, fmt.Errorf("passgp: Options.EP: %w", err)
	}
	return c, nil
}

// setDefaults replaces the zero values of the schedule and the thresholds
// by their defaults.
func (c *config) setDefaults() {
	c.Init = cmp.Or(c.Init, InitSize(c.Method, c.MaxActive))
	c.Sub = cmp.Or(c.Sub, DefaultSub)
	// N_pass: the paper's 2; fPASS-GP's 4 and IVM's 8 alternations.
	c.Passes = cmp.Or(c.Passes, map[Method]int{FPASSGP: 4, IVM: 8}[c.Method], 2)
	c.PInc = cmp.Or(c.PInc, DefaultPInc)
	c.PDel = cmp.Or(c.PDel, DefaultPDel)
	c.PExc = cmp.Or(c.PExc, DefaultPExc)
	c.M = cmp.Or(c.M, c.Init)
	c.HypEvery = cmp.Or(c.HypEvery, 1)
	if a := c.Augment; a != nil {
		a.PInc = cmp.Or(a.PInc, DefaultAugmentPInc)
		a.Sub = cmp.Or(a.Sub, c.Sub)
		a.Passes = cmp.Or(a.Passes, c.Passes)
	}
	c.threads = c.Threads
	if c.threads <= 0 {
		c.threads = la.Threads()
	}
}

// validate checks the resolved options for d features.
func (c *config) validate(d int) error {
	switch {
	case c.Init < 0, c.Sub < 0, c.Passes < 0, c.M < 0, c.HypEvery < 0:
		return fmt.Errorf("passgp: Init, Sub, Passes, M and HypEvery must be >= 0")
	case !(c.PInc > 0 && c.PInc <= 1), !(c.PDel > 0 && c.PDel <= 1), !(c.PExc > 0 && c.PExc <= 1):
		return fmt.Errorf("passgp: PInc, PDel and PExc must lie in (0, 1]")
	case c.MaxActive < 0:
		return fmt.Errorf("passgp: MaxActive must be >= 0, got %d", c.MaxActive)
	case c.Lower != nil && len(c.Lower) != len(c.Kernel.Params()), c.Upper != nil && len(c.Upper) != len(c.Kernel.Params()):
		return fmt.Errorf("passgp: Lower and Upper need %d entries for kernel %s", len(c.Kernel.Params()), c.Kernel.Name())
	case c.BoundFITC < 0:
		return fmt.Errorf("passgp: BoundFITC must be >= 0, got %d", c.BoundFITC)
	case c.Method == FPASSGP && math.Round(c.PExc*float64(c.M)) < 1:
		// The swap rule exchanges round(PExc·M) points per batch: with
		// none, fPASS-GP would never change its random initial set.
		return fmt.Errorf("passgp: fPASS-GP exchanges round(PExc·M) = round(%g·%d) = 0 points per batch, so the active set would never change; raise PExc or M", c.PExc, c.M)
	}
	if c.Augment != nil {
		return c.Augment.validate(d)
	}
	return nil
}

// validate checks a resolved invariance stage for d features.
func (a *Augmentation) validate(d int) error {
	switch {
	case a.Sub < 0, a.Passes < 0:
		return fmt.Errorf("passgp: Augment.Sub and Augment.Passes must be >= 0")
	case !(a.PInc > 0 && a.PInc <= 1):
		return fmt.Errorf("passgp: Augment.PInc must lie in (0, 1]")
	case a.Shifts != 4 && a.Shifts != 8:
		return fmt.Errorf("passgp: Augment.Shifts must be 4 or 8, got %d", a.Shifts)
	case a.ImageW <= 0 || a.ImageH <= 0 || a.ImageW*a.ImageH != d:
		return fmt.Errorf("passgp: Augment needs ImageW×ImageH (%d×%d) equal to the number of features %d", a.ImageW, a.ImageH, d)
	}
	return nil
}

// The evaluation caps of the θ searches: constants of the method.
const (
	// hypMaxEvals caps the log Z_EP evaluations of a batch's optimisation
	// (tripled for the first), warm-started from the current θ and sites:
	// A changes little between batches (docs/method.md, Section 3).
	hypMaxEvals = 3
	// finalHypEvals caps the evaluations of the last optimisation, on the
	// final active set, whose θ the classifier uses. With a handful of
	// evaluations L-BFGS has not finished its first line search (see
	// docs/method.md), so the final θ gets a real optimisation.
	finalHypEvals = 30
	// thetaTol stops a θ search once five iterations gained less in log Z:
	// a loss of 1/2 is one posterior standard deviation of θ (flat prior on
	// log θ), so smaller gains move θ by a fraction of its uncertainty.
	thetaTol = 0.05
)

// hypPasses returns the number of first passes in which θ is optimised;
// it is kept fixed after them. PASS-GP optimises it in every pass;
// fPASS-GP in the first only: its swaps fill A with the hardest points, on
// which the evidence pulls the length scale down (docs/method.md).
func (c *config) hypPasses() int {
	if c.Method == FPASSGP {
		return 1
	}
	return c.Passes
}

// optimizeOptions returns ep.Optimize's options with at most evals
// evaluations (0: ep's default) and EP options e.
func (c *config) optimizeOptions(evals int, e ep.Options) *ep.OptimizeOptions {
	return &ep.OptimizeOptions{Fixed: c.Fixed, MaxEvals: evals, Lower: c.lower, Upper: c.upper, FuncTol: thetaTol, EP: e}
}

// epOptions returns the EP options used inside the active set loop.
func (c *config) epOptions() ep.Options {
	e := c.EP
	if e.Tol == 0 {
		e.Tol = DefaultEPTol
	}
	return e
}

// finalEPOptions returns the EP options of the final posterior: at least as
// tight as ep's own default.
func (c *config) finalEPOptions() ep.Options {
	e := c.EP
	if e.Tol == 0 || e.Tol > 1e-4 {
		e.Tol = 1e-4
	}
	return e
}
