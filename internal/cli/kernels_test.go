package cli

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"

	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/la/blasinit"
)

// blasinitHooks is the linker flag that turns on blasinit's test hooks:
// PASSGP_BLAS_TEST_PICKED takes the place of OpenBLAS's own choice and
// PASSGP_BLAS_TEST_CORRUPT makes the check of new kernels fail.
const blasinitHooks = "github.com/passgp-fast/passgp-fast/la/blasinit.testHooks=1"

// TestVersionKernels runs the built program's version command as on a
// virtual machine that hides its AVX-512 CPU, where OpenBLAS picks its
// Prescott kernels (simulated with the test hook): the program must
// restart itself with the SkylakeX kernels, unless the user chose the
// kernels or turned the restart off, and fall back to Prescott's, saying
// so once, when the new kernels fail their check.
func TestVersionKernels(t *testing.T) {
	if la.Backend != "openblas" || !strings.Contains(la.BLASConfig(), "DYNAMIC_ARCH") {
		t.Skipf("BLAS %s (%q) cannot change its kernels", la.Backend, la.BLASConfig())
	}
	x := cpu.X86
	if !(x.HasAVX512F && x.HasAVX512BW && x.HasAVX512CD && x.HasAVX512DQ && x.HasAVX512VL) {
		t.Skip("the CPU lacks AVX-512")
	}
	bin := buildBinary(t)
	var base []string // the environment without the variables under test
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, blasinit.CoreEnv+"=") && !strings.HasPrefix(kv, "PASSGP_BLAS_") {
			base = append(base, kv)
		}
	}
	const picked = "PASSGP_BLAS_TEST_PICKED=Prescott"
	for _, c := range []struct {
		name            string
		env             []string
		kernels, stderr string // what stdout and stderr must contain
		notKernels      string // what stdout must not contain
	}{
		{"hidden CPU", []string{picked}, "SkylakeX kernels (chosen for this CPU in place of OpenBLAS's Prescott),", "", ""},
		{"user's choice", []string{picked, blasinit.CoreEnv + "=Prescott"}, "Prescott kernels,", "", ""},
		{"off", []string{picked, blasinit.AutoEnv + "=0"}, "", "", "chosen"},
		{"failed check", []string{picked, "PASSGP_BLAS_TEST_CORRUPT=1"}, "Prescott kernels,",
			"passgp-fast: OpenBLAS's SkylakeX kernels failed a check against gonum's pure-Go BLAS and LAPACK", ""},
	} {
		cmd := exec.Command(bin, "version")
		cmd.Env = append(append([]string(nil), base...), c.env...)
		var errOut strings.Builder
		cmd.Stderr = &errOut
		out, err := cmd.Output()
		e := errOut.String()
		if err != nil || !strings.Contains(string(out), c.kernels) || (c.notKernels != "" && strings.Contains(string(out), c.notKernels)) {
			t.Errorf("%s: %v, version %q, want it to contain %q", c.name, err, out, c.kernels)
		}
		if (c.stderr == "" && e != "") || (c.stderr != "" && strings.Count(e, c.stderr) != 1) {
			t.Errorf("%s: stderr %q, want %q once", c.name, e, c.stderr)
		}
	}
}
