package passgpfast

import (
	"time"

	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// Option changes how Fit trains.
type Option func(*settings)

// settings are Fit's options.
type settings struct {
	cfg        Config
	threads    int
	maxClasses int
	inPlace    bool
	sideBySide bool
	progress   func(Progress)
	start      func(Plan)
	report     func(Report)
	state      func(k int)
	ckPath     string
	ckEvery    time.Duration
	resume     *model.Checkpoint
	remote     RemoteScorer
}

func newSettings(opts []Option) *settings {
	s := &settings{cfg: DefaultConfig(), maxClasses: passgp.DefaultMaxClasses, ckEvery: DefaultCheckpointEvery}
	for _, o := range opts {
		o(s)
	}
	return s
}

// DefaultCheckpointEvery is how often WithCheckpoint writes its file
// during a classifier's training by default.
const DefaultCheckpointEvery = 30 * time.Second

// WithConfig replaces the whole configuration (start from DefaultConfig).
func WithConfig(c Config) Option { return func(s *settings) { s.cfg = c } }

// WithMethod selects the active set method: passgp, fpassgp, ivm, random
// or full.
func WithMethod(m string) Option { return func(s *settings) { s.cfg.Method = m } }

// WithKernel selects the covariance function (NewKernel's names) and its
// initial θ (none: the kernel's start values).
func WithKernel(name string, theta ...float64) Option {
	return func(s *settings) { s.cfg.Kernel, s.cfg.Theta = name, theta }
}

// WithSeed sets the random seed of the initial active set and batches.
func WithSeed(seed uint64) Option { return func(s *settings) { s.cfg.Seed = seed } }

// WithSchedule sets N_init, N_sub and N_pass (0 init: passgp.InitSize; 0
// passes: the method's).
func WithSchedule(init, sub, passes int) Option {
	return func(s *settings) { s.cfg.Init, s.cfg.Sub, s.cfg.Passes = init, sub, passes }
}

// WithScale sets the input scaling: auto, standard, minmax or none.
func WithScale(mode string) Option { return func(s *settings) { s.cfg.Scale = mode } }

// WithPositive trains label against the rest.
func WithPositive(label float64) Option { return func(s *settings) { s.cfg.Positive = &label } }

// WithThreads bounds the worker goroutines of training (passgp.Options.Threads;
// 0: la.Threads()). It changes no process-wide setting.
func WithThreads(n int) Option { return func(s *settings) { s.threads = n } }

// WithMaxClasses refuses labels with more than k distinct values
// (real-valued targets); default passgp.DefaultMaxClasses.
func WithMaxClasses(k int) Option { return func(s *settings) { s.maxClasses = k } }

// WithClassesSideBySide trains the classes of a one-vs-rest run at the
// same time on la.Threads() workers (passgp.Options.Multi.ClassWorkers), not
// one after another; checkpoints are not written then. The classifiers
// are the same. It pays where each worker's BLAS calls run on one thread,
// which is the caller's process-wide setting (la.LimitBLAS), not Fit's.
func WithClassesSideBySide() Option { return func(s *settings) { s.sideBySide = true } }

// WithScaleInPlace lets FitDataset scale the data set's inputs in place
// instead of a copy (for callers that do not need them afterwards).
func WithScaleInPlace() Option { return func(s *settings) { s.inPlace = true } }

// Progress is a finished batch of classifier Classifier (0-based) of
// Classifiers.
type Progress struct {
	passgp.Progress
	Classifier, Classifiers int
}

// WithProgress calls f after every batch, from the training goroutines
// (classes side by side call it concurrently).
func WithProgress(f func(Progress)) Option { return func(s *settings) { s.progress = f } }

// WithStart calls f once the run's plan is known, before training.
func WithStart(f func(Plan)) Option { return func(s *settings) { s.start = f } }

// WithReport calls f when a classifier has finished.
func WithReport(f func(Report)) Option { return func(s *settings) { s.report = f } }

// WithStateHook calls f(k) after each batch of classifier k.
func WithStateHook(f func(k int)) Option { return func(s *settings) { s.state = f } }

// WithCheckpoint writes a resumable checkpoint to path (model.SaveCheckpoint)
// at most every every (0: after every batch) during a classifier's
// training, after each finished classifier but the last, and when ctx
// ends training; WithResume continues from it. A checkpoint that cannot
// be written stops training with its error.
func WithCheckpoint(path string, every time.Duration) Option {
	return func(s *settings) { s.ckPath, s.ckEvery = path, every }
}

// WithResume continues the run of checkpoint cp on the same data; the
// configuration is the checkpoint's, and WithConfig and the options that
// change it are ignored.
func WithResume(cp *model.Checkpoint) Option { return func(s *settings) { s.resume = cp } }
