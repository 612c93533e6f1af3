package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"

	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/la/blasinit"
)

// kernels is what TestMain's blasinit.UseBestKernels reported.
var kernels blasinit.Kernels

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
	kernels = k
	os.Exit(m.Run())
}

// TestBLASKernels logs the kernels the benchmarks run on (go test -v).
func TestBLASKernels(t *testing.T) {
	if kernels.Core != la.BLASCore() {
		t.Errorf("TestMain reported %q, OpenBLAS runs %q", kernels.Core, la.BLASCore())
	}
	t.Logf("BLAS kernels: %s", kernels)
}

// TestMainRestart builds this package's test binary with blasinit's test
// hooks and runs TestBLASKernels in it as on a virtual machine that hides
// its AVX-512 CPU, where OpenBLAS picks its Prescott kernels: TestMain
// must restart the binary with its arguments (-test.run, -test.v) on the
// SkylakeX kernels.
func TestMainRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	if la.Backend != "openblas" || !strings.Contains(la.BLASConfig(), "DYNAMIC_ARCH") {
		t.Skipf("BLAS %s (%q) cannot change its kernels", la.Backend, la.BLASConfig())
	}
	x := cpu.X86
	if !(x.HasAVX512F && x.HasAVX512BW && x.HasAVX512CD && x.HasAVX512DQ && x.HasAVX512VL) {
		t.Skip("the CPU lacks AVX-512")
	}
	bin := filepath.Join(t.TempDir(), "bench.test")
	build := exec.Command("go", "test", "-c", "-o", bin, "-ldflags",
		"-X github.com/passgp-fast/passgp-fast/la/blasinit.testHooks=1", ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-test.run", "^TestBLASKernels$", "-test.v")
	cmd.Env = []string{"PASSGP_BLAS_TEST_PICKED=Prescott"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, blasinit.CoreEnv+"=") && !strings.HasPrefix(kv, "PASSGP_BLAS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	s := string(out)
	want := "BLAS kernels: SkylakeX kernels (chosen for this CPU in place of OpenBLAS's Prescott)"
	if err != nil || !strings.Contains(s, want) || strings.Count(s, "=== RUN") != 1 {
		t.Errorf("%v\n%s\nwant one run of TestBLASKernels logging %q", err, s, want)
	}
}
