package passgp

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/la"
)

// MultiClass is a one-against-the-rest classifier: Models[c] separates
// Classes[c] (+1) from every other class (−1). Classes are sorted
// ascending.
type MultiClass struct {
	Classes []float64
	Models  []*Binary
}

// PredictProbTo sets dst (n×len(Classes)) to every class's q(+1|x) for the
// rows of x.
func (m *MultiClass) PredictProbTo(dst *mat.Dense, x *mat.Dense) {
	n, _ := x.Dims()
	r, c := dst.Dims()
	if r != n || c != len(m.Classes) {
		panic("passgp: PredictProbTo destination must be n×len(Classes)")
	}
	p := make([]float64, n)
	for j, b := range m.Models {
		b.PredictTo(p, x)
		dst.SetCol(j, p)
	}
}

// PredictTo sets dst[i] to the class of largest predictive probability
// q(+1|x_i) = Φ(z), z = m/√(1+v), for row i of x (ties: the smaller
// label). The classes are compared by z, which orders them as Φ(z) does
// but does not round to a tie at Φ(z) = 1 for z > 8.3.
func (m *MultiClass) PredictTo(dst []float64, x *mat.Dense) {
	n, _ := x.Dims()
	z := mat.NewDense(n, len(m.Classes), nil)
	zj := make([]float64, n)
	for j, b := range m.Models {
		b.LatentTo(zj, x)
		z.SetCol(j, zj)
	}
	for i := 0; i < n; i++ {
		dst[i] = m.Classes[ArgmaxLatent(z.RawRowView(i))]
	}
}

// DefaultMaxClasses is the default of Options.MaxClasses.
const DefaultMaxClasses = 100

// CheckClasses returns an error when there are more than max distinct
// class labels (sorted ascending): labels that many are real-valued
// targets of a regression problem, not classes, and one-vs-rest would
// train a classifier for each.
func CheckClasses(classes []float64, max int) error {
	if len(classes) <= max {
		return nil
	}
	ex := make([]string, 0, 4)
	for _, c := range classes[:3] {
		ex = append(ex, strconv.FormatFloat(c, 'g', -1, 64))
	}
	return fmt.Errorf("passgp: %d distinct labels (%s, ..., %v): more than %d classes looks like a regression target, not class labels; "+
		"one-vs-rest would train a classifier per label (raise the class limit if these really are classes)",
		len(classes), strings.Join(ex, ", "), classes[len(classes)-1], max)
}

// MultiResult is a trained multi-class classifier with each class's
// training record.
type MultiResult struct {
	Model    *MultiClass
	PerClass []*Result
	Elapsed  time.Duration
	// Calibration maps the K classifiers' latents to class probabilities
	// (multinomial logistic), fitted on the held-out latents of the
	// training points (Result.HeldOut); nil for a run stopped early.
	Calibration *calib.Calibration
}

// TrainMulti trains one binary classifier per distinct label (one against
// the rest) with the options o; class c gets labels +1 where labels == c.
// When BLAS is single-threaded (the application's choice: la.SetBLASThreads
// or OPENBLAS_NUM_THREADS=1), classes are trained concurrently on
// min(Threads, classes) goroutines, each scoring with Threads/workers
// goroutines; otherwise one after another, each using the cores through
// BLAS (Options.Multi.ClassWorkers overrides this). The result does not depend
// on Threads. Progress, Checkpoint and Multi.ClassDone calls are serialised;
// State.Class tells the class. A run resumes from the classifiers of
// Options.Multi.Finished and the snapshot Options.Resume of class Resume.Class.
// When ctx ends, the classes in progress stop at their next batch and
// TrainMulti returns the error of the first class that did not finish
// (wrapping ctx's), or the model with ctx's error if every class has one.
func TrainMulti(ctx context.Context, x *mat.Dense, labels []float64, o *Options) (*MultiResult, error) {
	return TrainMultiRows(ctx, DenseRows(x), labels, o)
}

// TrainMultiRows is TrainMulti on inputs read through Rows (TrainRows).
func TrainMultiRows(ctx context.Context, x Rows, labels []float64, o *Options) (*MultiResult, error) {
	start := time.Now()
	n, _ := x.Dims()
	classes, err := multiClasses(labels, n, o)
	if err != nil {
		return nil, err
	}
	ys := oneVsRest(labels, classes)
	base, err := checkInput(ctx, x, ys[0], o)
	if err != nil {
		return nil, err
	}
	m := &multiRun{x: x, ys: ys, classes: classes, base: base,
		results: make([]*Result, len(classes)), errs: make([]error, len(classes))}
	m.runAll(ctx)
	mr, err := m.collect(ctx)
	if err != nil {
		if mr != nil {
			mr.Elapsed = time.Since(start)
		}
		return mr, err
	}
	mr.Calibration, err = m.calibration(ctx, labels, mr)
	mr.Elapsed = time.Since(start)
	return mr, err
}

// multiClasses returns the distinct labels of a one-vs-rest run, checked:
// finite, at least two, at most Options.MaxClasses, and holding the class
// of a resumed state.
func multiClasses(labels []float64, n int, o *Options) ([]float64, error) {
	if len(labels) != n {
		return nil, fmt.Errorf("passgp: %d labels for %d rows", len(labels), n)
	}
	for i, l := range labels {
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return nil, fmt.Errorf("passgp: label %d is %v, want a finite class label", i, l)
		}
	}
	classes := slices.Clone(labels)
	slices.Sort(classes)
	classes = slices.Clone(slices.Compact(classes)) // not holding the sorted copy of the labels
	if len(classes) < 2 {
		return nil, fmt.Errorf("passgp: TrainMulti needs at least two classes, got %d", len(classes))
	}
	maxClasses := DefaultMaxClasses
	if o != nil && o.MaxClasses > 0 {
		maxClasses = o.MaxClasses
	}
	if err := CheckClasses(classes, maxClasses); err != nil {
		return nil, err
	}
	if o != nil && o.Resume != nil && !slices.Contains(classes, o.Resume.Class) {
		return nil, fmt.Errorf("passgp: resume state is for class %v, which the labels do not have", o.Resume.Class)
	}
	return classes, nil
}

// oneVsRest returns each class's ±1 targets.
func oneVsRest(labels, classes []float64) [][]float64 {
	ys := make([][]float64, len(classes))
	for j, c := range classes {
		ys[j] = make([]float64, len(labels))
		for i, l := range labels {
			ys[j][i] = -1
			if l == c {
				ys[j][i] = 1
			}
		}
	}
	return ys
}

// multiRun trains the binary classifiers of a one-vs-rest run.
type multiRun struct {
	x       Rows
	ys      [][]float64
	classes []float64
	base    config
	mu      sync.Mutex // serialises the callbacks
	results []*Result
	errs    []error
}

// workers returns the number of classes trained side by side and the
// threads of each. Classes run concurrently only when BLAS is
// single-threaded (the application's policy, la.SetBLASThreads(1) or
// OPENBLAS_NUM_THREADS=1); otherwise one at a time, each using the cores
// through BLAS. Nothing here changes the process-wide BLAS setting.
func (m *multiRun) workers() (workers, per int) {
	workers = min(m.base.threads, len(m.classes))
	if la.BLASThreads() > 1 {
		workers = 1
	}
	if m.base.Multi.ClassWorkers > 0 {
		workers = min(m.base.Multi.ClassWorkers, len(m.classes))
	}
	return workers, max(m.base.threads/workers, 1)
}

// runAll trains every class, side by side where workers says so, each
// worker on its own runner.
func (m *multiRun) runAll(ctx context.Context) {
	workers, per := m.workers()
	runners := make([]*runner, workers)
	for w := range runners {
		runners[w] = newRunner(per)
	}
	la.ForEach(workers, len(m.classes), func(w, j int) { m.runClass(ctx, j, runners[w]) })
}

// runClass trains class j on r, or takes it from Options.Multi.Finished.
func (m *multiRun) runClass(ctx context.Context, j int, r *runner) {
	base := &m.base
	c := m.base
	cls := m.classes[j]
	if f := base.Multi.Finished[cls]; f != nil {
		n, _ := m.x.Dims()
		if nh := heldCount(m.base, n); f.Model == nil || f.HeldOut != nil && (len(f.HeldOut) != nh || len(f.HeldOutShare) != nh) {
			m.errs[j] = fmt.Errorf("passgp: finished class %v: no model, or %d/%d held-out latents for %d points", cls,
				len(f.HeldOut), len(f.HeldOutShare), nh)
			return
		}
		r := *f
		m.results[j] = &r
		return
	}
	if c.Resume != nil && c.Resume.Class != cls {
		c.Resume = nil
	}
	name := strconv.FormatFloat(cls, 'g', -1, 64)
	if base.Progress != nil {
		c.Progress = func(p Progress) {
			m.mu.Lock()
			defer m.mu.Unlock()
			p.Class = name
			base.Progress(p)
		}
	}
	if base.Checkpoint != nil {
		c.Checkpoint = func(s *State) {
			m.mu.Lock()
			defer m.mu.Unlock()
			s.Class = cls
			base.Checkpoint(s)
		}
	}
	m.results[j], m.errs[j] = train(ctx, m.x, m.ys[j], &c, r, name)
	if m.errs[j] == nil && base.Multi.ClassDone != nil {
		m.mu.Lock()
		defer m.mu.Unlock()
		base.Multi.ClassDone(cls, m.results[j])
	}
}

// collect gathers the classes' classifiers into the run's result, with
// the first class's error (ctx's where every class has a model).
func (m *multiRun) collect(ctx context.Context) (*MultiResult, error) {
	mr := &MultiResult{Model: &MultiClass{Classes: m.classes, Models: make([]*Binary, len(m.classes))}, PerClass: m.results}
	var firstErr error
	for j, r := range m.results {
		if m.errs[j] != nil && firstErr == nil {
			firstErr = fmt.Errorf("class %v: %w", m.classes[j], m.errs[j])
		}
		if r == nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("passgp: class %v produced no model", m.classes[j])
			}
			continue
		}
		mr.Model.Models[j] = r.Model
	}
	if firstErr != nil {
		if ctx.Err() != nil && slices.IndexFunc(mr.Model.Models, func(b *Binary) bool { return b == nil }) < 0 {
			return mr, ctx.Err()
		}
		return nil, firstErr
	}
	return mr, nil
}

// calibration fits the multi-class calibration on every class's
// held-out latents (computed here for classes given in Options.Multi.Finished),
// all of the same points (HeldOutRows).
func (m *multiRun) calibration(ctx context.Context, labels []float64, mr *MultiResult) (*calib.Calibration, error) {
	n, _ := m.x.Dims()
	held := m.base.HeldOutRows(n)
	nh := heldCount(m.base, n)
	k := len(m.classes)
	z, rho := mat.NewDense(nh, k, nil), mat.NewDense(nh, k, nil)
	for j, r := range m.results {
		if r.HeldOut == nil || r.HeldOutShare == nil {
			xh, _, bh := HeldView(m.x, labels, r.Model, held)
			var err error
			if r.HeldOut, r.HeldOutShare, r.HeldOutLost, err = heldOutLatents(ctx, newRunner(m.base.threads), bh, xh, m.base.geom()); err != nil {
				return nil, err
			}
			r.HeldOutRows = held
		}
		z.SetCol(j, r.HeldOut)
		rho.SetCol(j, r.HeldOutShare)
	}
	truth := make([]int, nh)
	for i, l := range Gather(labels, held) {
		truth[i], _ = slices.BinarySearch(m.classes, l)
	}
	return calib.Fit(z, rho, truth)
}

// heldCount is the number of training points, of n, with held-out
// latents (HeldOutRows).
func heldCount(c config, n int) int {
	if c.geom() != nil {
		return n
	}
	return min(n, heldOutMax)
}
