package passgpfast

import (
	"math"
	"strings"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// KernelNames lists the covariance functions NewKernel knows.
const KernelNames = "se, se+lin, se+bias, seard, seard+bias or poly"

// NewKernel returns the covariance function name with hyperparameters
// theta (nil: the kernel's own start values), polynomial degree and input
// scale gamma (poly only; gamma 0 is 1/d), for d input features. The ARD
// kernels' θ depends on d: with d = 0 their θ is not checked, and a nil θ
// gives a nil kernel (passgp.StartKernel builds it once d is known).
// Errors are *ConfigError.
func NewKernel(name string, theta []float64, degree int, gamma float64, d int) (kernel.Kernel, error) {
	switch name {
	case "se", "se+lin", "se+bias", "poly":
	case "seard", "seard+bias":
		if theta == nil {
			return nil, nil
		}
		if d > 0 {
			return ardKernel(name, theta, d)
		}
	default:
		return nil, configErr("--kernel: unknown kernel %q (want %s)", name, KernelNames)
	}
	if degree < 1 {
		return nil, configErr("the poly kernel's degree must be a positive integer, got %d", degree)
	}
	if gamma < 0 || math.IsNaN(gamma) || math.IsInf(gamma, 0) {
		return nil, configErr("the poly kernel's gamma must be >= 0, got %v", gamma)
	}
	k, err := kernel.New(name, theta, degree, gamma)
	if err != nil {
		return nil, configErr("--theta: %v", strings.TrimPrefix(err.Error(), "kernel: "))
	}
	return k, nil
}

// isARD reports whether name is one of the ARD kernels, whose number of
// hyperparameters depends on the input dimension.
func isARD(name string) bool { return name == "seard" || name == "seard+bias" }

// ardKernel returns the ARD kernel name with θ for d features; θ must
// have d+2 values (d+3 with the bias).
func ardKernel(name string, theta []float64, d int) (kernel.Kernel, error) {
	np := d + 2
	bias := ""
	if name == "seard+bias" {
		np++
		bias = ", t4"
	}
	if len(theta) != np {
		return nil, configErr("--theta: kernel %s for %d features takes %d hyperparameters [t1, t2_1..t2_%d, t3%s], got %d", name, d, np, d, bias, len(theta))
	}
	k, err := kernel.New(name, theta, 0, 0)
	if err != nil {
		return nil, configErr("--theta: %v", strings.TrimPrefix(err.Error(), "kernel: "))
	}
	return k, nil
}
