package model

import (
	"fmt"
	"math"
)

// validate checks what ep.FromSites and the kernel need; it does not
// build anything. The checks run in a fixed order (kernel, active set and
// sites, FITC posterior), so a file with several faults always reports
// the same one.
func (c *Classifier) validate() error {
	if err := c.validateKernel(); err != nil {
		return err
	}
	if err := c.validateActive(); err != nil {
		return err
	}
	return c.validateFITC()
}

// validateKernel checks the kernel name and its hyperparameters: their
// number for the kernel, and each positive and finite.
func (c *Classifier) validateKernel() error {
	switch c.Kernel {
	case "se":
		if len(c.Theta) != 3 {
			return fmt.Errorf("kernel se needs 3 hyperparameters, has %d", len(c.Theta))
		}
	case "se+lin", "se+bias":
		if len(c.Theta) != 4 {
			return fmt.Errorf("kernel %s needs 4 hyperparameters, has %d", c.Kernel, len(c.Theta))
		}
	case "seard", "seard+bias":
		np := c.D + 2
		if c.Kernel == "seard+bias" {
			np++
		}
		if c.D < 1 || len(c.Theta) != np {
			return fmt.Errorf("kernel %s for %d features needs %d hyperparameters, has %d", c.Kernel, c.D, np, len(c.Theta))
		}
	case "poly":
		if len(c.Theta) != 2 {
			return fmt.Errorf("kernel poly needs 2 hyperparameters, has %d", len(c.Theta))
		}
		if c.Degree < 1 || c.Degree > 1000 {
			return fmt.Errorf("poly degree %d out of range", c.Degree)
		}
		if !(c.Gamma >= 0) || math.IsInf(c.Gamma, 0) {
			return fmt.Errorf("poly gamma %v invalid", c.Gamma)
		}
	default:
		return fmt.Errorf("unknown kernel %q", c.Kernel)
	}
	for _, t := range c.Theta {
		if !(t > 0) || math.IsInf(t, 0) {
			return fmt.Errorf("hyperparameter %v is not positive and finite", t)
		}
	}
	return nil
}

// validateActive checks the active set and its sites: a non-empty set of
// finite inputs with labels ±1, consistent lengths, sites of finite
// natural mean and non-negative finite precision, indices >= -1.
func (c *Classifier) validateActive() error {
	if c.D < 1 {
		return fmt.Errorf("input dimension %d", c.D)
	}
	if len(c.Y) == 0 {
		return fmt.Errorf("empty active set")
	}
	n := len(c.Y)
	if len(c.X) != n*c.D || len(c.Active) != n || len(c.Tau) != n || len(c.Nu) != n {
		return fmt.Errorf("inconsistent lengths")
	}
	if math.IsNaN(c.Class) || math.IsInf(c.Class, 0) {
		return fmt.Errorf("class label %v", c.Class)
	}
	for _, v := range c.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("active input %v is not finite", v)
		}
	}
	for j, y := range c.Y {
		if y != 1 && y != -1 {
			return fmt.Errorf("active label %d is %v, not ±1", j, y)
		}
		if !(c.Tau[j] >= 0) || math.IsInf(c.Tau[j], 0) {
			return fmt.Errorf("site precision %d is %v", j, c.Tau[j])
		}
		if math.IsNaN(c.Nu[j]) || math.IsInf(c.Nu[j], 0) {
			return fmt.Errorf("site mean %d is %v", j, c.Nu[j])
		}
		if c.Active[j] < -1 {
			return fmt.Errorf("active index %d is %d", j, c.Active[j])
		}
	}
	return nil
}

// validateFITC checks the FITC posterior, if any, on a valid active set:
// ascending inducing indices into it, β and P's factor of the lengths the
// inducing inputs give, β finite and the factor lower triangular with a
// positive finite diagonal.
func (c *Classifier) validateFITC() error {
	if c.Beta == nil && c.FactorP == nil {
		if c.Inducing != nil {
			return fmt.Errorf("FITC inducing indices without a FITC posterior")
		}
		return nil
	}
	n := len(c.Y)
	if c.Inducing != nil {
		for j, v := range c.Inducing {
			if v < 0 || v >= n || j > 0 && v <= c.Inducing[j-1] {
				return fmt.Errorf("FITC inducing index %d is %d (want ascending indices in [0, %d))", j, v, n)
			}
		}
		n = len(c.Inducing)
	}
	if len(c.Beta) != n || len(c.FactorP) != n*n {
		return fmt.Errorf("FITC posterior: β of length %d and factor of length %d for %d inducing points", len(c.Beta), len(c.FactorP), n)
	}
	for j, v := range c.Beta {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("FITC posterior: β[%d] is %v", j, v)
		}
	}
	for i := range n {
		for j, v := range c.FactorP[i*n : (i+1)*n] {
			switch {
			case j > i && v != 0:
				return fmt.Errorf("FITC posterior: factor entry (%d, %d) above the diagonal is %v", i, j, v)
			case j == i && !(v > 0 && !math.IsInf(v, 0)):
				return fmt.Errorf("FITC posterior: factor diagonal %d is %v", i, v)
			case math.IsNaN(v) || math.IsInf(v, 0):
				return fmt.Errorf("FITC posterior: factor entry (%d, %d) is %v", i, j, v)
			}
		}
	}
	return nil
}
