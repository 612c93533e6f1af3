package passgpfast

import (
	"cmp"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// DefaultConfig returns train's defaults: PASS-GP with the paper's USPS
// settings (Henao & Winther 2012, Section 6.1), the default kernel of the
// method (DefaultKernel), automatic input scaling, the budget of
// passgp.SqrtBudget and the FITC posterior of DefaultBoundFITC.
func DefaultConfig() Config {
	return Config{
		Method: "passgp", Degree: 9, Sub: passgp.DefaultSub,
		PInc: passgp.DefaultPInc, PDel: passgp.DefaultPDel, PExc: passgp.DefaultPExc, HypEvery: 1,
		BoundFITC: DefaultBoundFITC, Seed: 1, MaxActive: AutoMaxActive, Scale: "auto",
	}
}

// Options turns the configuration into passgp options for d features. It
// also normalises c: the settings that do not apply to the method are
// cleared, so that the stored configuration says what ran. Errors are
// *ConfigError.
func (c *Config) Options(d int) (passgp.Options, error) {
	var o passgp.Options
	m, err := passgp.ParseMethod(c.Method)
	if err != nil {
		return o, configErr("--method: unknown method %q (want passgp, fpassgp, ivm, random or full)", c.Method)
	}
	o.Method = m
	if o.Kernel, err = c.kernel(m, d); err != nil {
		return o, err
	}
	o.FixedTheta = c.FixedTheta
	if err := c.checkSchedule(); err != nil {
		return o, err
	}
	if err := c.budget(&o); err != nil {
		return o, err
	}
	c.Init = cmp.Or(c.Init, passgp.InitSize(m, o.MaxActive)) // stored resolved
	o.Init, o.Sub, o.Passes, o.M, o.HypEvery = c.Init, c.Sub, c.Passes, c.M, c.HypEvery
	o.PInc, o.PDel, o.PExc = c.PInc, c.PDel, c.PExc
	if err := c.augment(&o, d); err != nil {
		return o, err
	}
	o.Seed = c.Seed
	return o, c.boundFITC(&o)
}

// kernel returns the initial kernel: Config.Kernel (empty: DefaultKernel
// for PASS-GP and IVM, the library's default for the others) with θ
// (empty: passgp.StartKernel's start values, so that train trains what
// passgp.Train would with the same kernel and options).
func (c *Config) kernel(m passgp.Method, d int) (kernelT, error) {
	name, degree := c.Kernel, c.Degree
	if name == "" {
		name = passgp.DefaultKernel(m, d).Name()
		if m == passgp.PASSGP || m == passgp.IVM {
			name = DefaultKernel
		}
	}
	if degree == 0 {
		degree = 9
	}
	if c.Theta == nil {
		if k, ok := passgp.StartKernel(name, d); ok {
			return k, nil
		}
	}
	return NewKernel(name, c.Theta, degree, c.Gamma, d)
}

// checkSchedule checks the sizes and probabilities of the selection.
func (c *Config) checkSchedule() error {
	switch {
	case c.Init < 0:
		return configErr("--init must be >= 0 (0: auto), got %d", c.Init)
	case c.Sub < 1:
		return configErr("--sub must be at least 1, got %d", c.Sub)
	case c.Passes < 0:
		return configErr("--passes must be >= 0, got %d", c.Passes)
	case c.M < 0:
		return configErr("Config.M must be >= 0, got %d", c.M)
	case c.HypEvery < 1:
		return configErr("--hyp-every must be at least 1, got %d", c.HypEvery)
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"--p-inc", c.PInc}, {"--p-del", c.PDel}, {"--p-exc", c.PExc}} {
		if !(p.v > 0 && p.v <= 1) {
			return configErr("%s must lie in (0, 1], got %v", p.name, p.v)
		}
	}
	return nil
}

// augment sets the invariance stage (paper Section 6.3).
func (c *Config) augment(o *passgp.Options, d int) error {
	var shifts int
	switch c.Augment {
	case "":
	case "shift4":
		shifts = 4
	case "shift8":
		shifts = 8
	default:
		return configErr("Config.Augment: want shift4 or shift8, got %q", c.Augment)
	}
	switch {
	case c.AugmentSub < 0 || c.AugmentPasses < 0:
		return configErr("augment_sub and augment_passes must be >= 0, got %d and %d", c.AugmentSub, c.AugmentPasses)
	case shifts == 0 && (c.AugmentSub != 0 || c.AugmentPasses != 0):
		return configErr("Config.AugmentSub and AugmentPasses need Config.Augment")
	}
	if shifts != 0 {
		if c.ImageW*c.ImageH != d {
			return configErr("Config.Augment: image %dx%d does not match the %d features", c.ImageW, c.ImageH, d)
		}
		o.Augment = &passgp.Augmentation{Shifts: shifts, ImageW: c.ImageW, ImageH: c.ImageH,
			Sub: c.AugmentSub, Passes: c.AugmentPasses}
	}
	return nil
}

type kernelT = kernel.Kernel

// boundFITC sets the FITC pass where PASS-GP's budget binds, and clears
// it where it does not apply (the stored options say so).
func (c *Config) boundFITC(o *passgp.Options) error {
	if c.BoundFITC < 0 {
		return configErr("Config.BoundFITC must be >= 0, got %d", c.BoundFITC)
	}
	if o.Method != passgp.PASSGP || o.Augment != nil {
		c.BoundFITC = 0 // PASS-GP's pass only
	}
	o.BoundFITC = c.BoundFITC
	return nil
}

// budget sets PASS-GP's budget on the active set.
func (c *Config) budget(o *passgp.Options) error {
	if c.MaxActive < 0 && c.MaxActive != AutoMaxActive {
		return configErr("--max-active must be >= 0, got %d", c.MaxActive)
	}
	o.MaxActive = max(c.MaxActive, 0)
	return nil
}
