package bench

import (
	"fmt"
	"os"
	"testing"

	"github.com/passgp-fast/passgp-fast/la/blasinit"
)

// TestMain runs the benchmarks on the OpenBLAS kernels of the CPU's
// instruction set, as the command does: where OpenBLAS picked older ones
// (a virtual machine hiding the CPU model), blasinit restarts the test
// binary once, with its arguments, on the right ones. OPENBLAS_CORETYPE
// or PASSGP_BLAS_AUTO=0 in the environment keeps OpenBLAS's kernels.
func TestMain(m *testing.M) {
	k, err := blasinit.UseBestKernels()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
	if k.Note != "" {
		fmt.Fprintf(os.Stderr, "bench: %s\n", k.Note)
	}
	os.Exit(m.Run())
}
