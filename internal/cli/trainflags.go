package cli

import (
	"fmt"
	"strconv"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// trainFlags holds the command line of train.
type trainFlags struct {
	df                 dataFlags
	kf                 kernelFlags
	cfg                passgpfast.Config
	modelOut, positive string
	checkpoint, resume string
	test               dataURI
	maxActive, engine  string
	threads            int
	// asked is --threads as given where --max-mem lowered it for a
	// streamed run (limitStreamThreads; 0: not lowered).
	asked        int
	paper, quiet bool
}

func (t *trainFlags) register(fs *flagSet) {
	c := &t.cfg
	*c = passgpfast.DefaultConfig()
	fs.group("Data")
	t.df.register(fs, true)
	fs.StringVar(&t.modelOut, "model", "", "output model `FILE` (required)")
	fs.StringVar(&t.positive, "positive", "", "train the binary task `LABEL` against the rest")
	fs.StringVar(&c.Scale, "scale", c.Scale, "input scaling stored in the model: auto, minmax, standard or none")
	fs.Var(&t.test, "test", "labelled test data `FILE` (options after ? as --data's): evaluate after training")
	fs.group("Method")
	fs.StringVar(&c.Method, "method", c.Method, "active set method: passgp, fpassgp, ivm, random or full")
	t.kf.register(fs, "", "initial hyperparameters `t1,t2,...` (default: the kernel's start values)")
	fs.IntVar(&c.Init, "init", c.Init, fmt.Sprintf("initial active set size N_init (0: auto: %d, or half of passgp's budget where less)", passgp.DefaultInit))
	fs.IntVar(&c.Sub, "sub", c.Sub, "number of batches N_sub")
	fs.IntVar(&c.Passes, "passes", 0, "passes N_pass over the data (0: 2 for passgp, 4 for fpassgp)")
	fs.Float64Var(&c.PInc, "p-inc", c.PInc, "passgp: include a point whose predictive probability is below `P`")
	fs.Float64Var(&c.PDel, "p-del", c.PDel, "passgp: delete an active point whose cavity probability exceeds `P`")
	fs.Float64Var(&c.PExc, "p-exc", c.PExc, "fpassgp: fraction of the active set exchanged per batch")
	fs.StringVar(&t.maxActive, "max-active", "auto", fmt.Sprintf("active set size `M`: passgp's budget (auto: %d sqrt(N), at most %d; past %d points only while the first pass's error falls; 0: none); fpassgp, ivm, random: the fixed size (auto: --init)", passgp.BudgetFactor, passgp.BudgetMax, passgp.BudgetCap))
	fs.BoolVar(&t.paper, "paper", false, "the paper's rules (Algorithm 1): SE kernel unless --kernel, no budget, no FITC pass; the calibration is still fitted (predict --raw: paper eq. 4)")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "random seed (initial active set, batches)")
	fs.group("Advanced")
	fs.IntVar(&c.HypEvery, "hyp-every", c.HypEvery, "optimise the hyperparameters on every `K`-th batch (0: never, keep the initial ones)")
	fs.StringVar(&t.engine, "engine", LocalEngine, "where training runs: local (this process) or beam (Apache Beam, through passgp-fast-beam; a binary data file)")
	fs.IntVar(&t.threads, "threads", 0, "worker and BLAS threads (0: all cores)")
	fs.StringVar(&t.checkpoint, "checkpoint", "", "write a resumable checkpoint `FILE` during training and on Ctrl-C")
	fs.StringVar(&t.resume, "resume", "", "continue training from checkpoint `FILE` (options are taken from it)")
	fs.BoolVar(&t.quiet, "quiet", false, "no progress output")
}

// checkFlags checks the flags and resolves them into t.cfg.
func (t *trainFlags) checkFlags() error {
	switch {
	case t.modelOut == "":
		return errUsage("--model FILE is required")
	case t.df.path == "":
		return errUsage("--data FILE is required")
	case t.threads < 0:
		return errUsage("--threads must be >= 0, got %d", t.threads)
	case t.cfg.HypEvery < 0:
		return errUsage("--hyp-every must be >= 0, got %d", t.cfg.HypEvery)
	}
	c := &t.cfg
	if c.HypEvery == 0 {
		// θ is never optimised; the schedule is stored as the default's.
		c.FixedTheta, c.HypEvery = true, passgpfast.DefaultConfig().HypEvery
	}
	if err := t.checkKernel(); err != nil {
		return err
	}
	if t.positive != "" {
		v, err := passgpfast.ParseFloats(t.positive)
		if err != nil || len(v) != 1 {
			return errUsage("--positive: want one label, got %q", t.positive)
		}
		c.Positive = &v[0]
	}
	if err := t.checkSize(); err != nil {
		return err
	}
	if testConfig != nil {
		testConfig(c)
	}
	return nil
}

// testConfig, if set, edits the configuration of every checked command
// line: tests set options of the library's Config that train has no flag
// for (Config.BoundFITC).
var testConfig func(*passgpfast.Config)

// checkKernel resolves --kernel (the SE kernel with --paper when it is
// not given) and --theta.
func (t *trainFlags) checkKernel() error {
	c := &t.cfg
	name, degree, gamma, err := t.kf.parse()
	if err != nil {
		return err
	}
	if name == "" && t.paper {
		name = "se" // the paper's covariance (Section 2)
	}
	c.Kernel, c.Degree, c.Gamma = name, degree, gamma
	if c.Theta, err = passgpfast.ParseFloats(t.kf.theta); err != nil {
		return errUsage("--theta: %v", err)
	}
	if name != "" {
		if _, err := passgpfast.NewKernel(name, c.Theta, degree, gamma, 0); err != nil {
			return err
		}
	}
	return nil
}

// checkSize resolves --max-active and --paper: the budget of passgp (and
// full, which ignores it), or the fixed size of fpassgp, ivm and random.
func (t *trainFlags) checkSize() error {
	c := &t.cfg
	size := passgpfast.AutoMaxActive
	if t.maxActive != "auto" {
		v, err := strconv.Atoi(t.maxActive)
		if err != nil || v < 0 {
			return errUsage("--max-active: want auto or an integer >= 0, got %q", t.maxActive)
		}
		size = v
	}
	m, err := passgp.ParseMethod(c.Method)
	if err != nil {
		return errUsage("--method: want passgp, fpassgp, ivm, random or full, got %q", c.Method)
	}
	switch m {
	case passgp.FPASSGP, passgp.IVM, passgp.Random:
		if size == 0 {
			return errUsage("--max-active: %s keeps a fixed active set of size M >= 1 (auto: --init), got 0", m)
		}
		c.M = max(size, 0) // 0: --init
	default:
		if t.paper && size > 0 {
			return errUsage("--paper has no active set budget; drop --max-active %s", t.maxActive)
		}
		c.MaxActive = size
	}
	if t.paper {
		// Algorithm 1 grows the active set without bound, and so has no
		// budget to bind and no FITC pass.
		c.MaxActive, c.BoundFITC = 0, 0
	}
	return nil
}
