package blasinit

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/passgp-fast/passgp-fast/la"
)

// Environment variables.
const (
	// CoreEnv is OpenBLAS's own variable naming the kernels to load.
	CoreEnv = "OPENBLAS_CORETYPE"
	// AutoEnv set to "0", "false" or "off" turns UseBestKernels off.
	AutoEnv = "PASSGP_BLAS_AUTO"
	// GuardEnv marks a process that UseBestKernels started; the
	// restarted process's call removes it.
	GuardEnv = "PASSGP_BLAS_REEXEC"
)

// Values of GuardEnv: guardCheck+picked asks the restarted process to
// check the kernels it loaded, OpenBLAS having picked picked itself;
// guardFellBack+message tells the process that replaced a failed check
// why it runs OpenBLAS's own choice.
const (
	guardCheck    = "check:"
	guardFellBack = "fallback:"
)

// Kernels says which OpenBLAS kernels the process runs and how they were
// chosen.
type Kernels struct {
	// Core names the kernels in use (la.BLASCore; "" for the pure-Go
	// backend).
	Core string
	// Picked names the kernels OpenBLAS picked itself when
	// UseBestKernels replaced them with Core, and is "" otherwise.
	Picked string
	// Note is a line for the user, or "": the better kernels failed
	// Check and the process runs OpenBLAS's own choice, or the restart
	// failed.
	Note string
}

// String names the kernels in use ("SkylakeX kernels", "pure Go kernels")
// and, when UseBestKernels chose them, OpenBLAS's own choice.
func (k Kernels) String() string {
	core := k.Core
	if core == "" {
		core = "pure Go"
	}
	if k.Picked == "" {
		return core + " kernels"
	}
	return fmt.Sprintf("%s kernels (chosen for this CPU in place of OpenBLAS's %s)", core, k.Picked)
}

// UseBestKernels makes the process run the OpenBLAS kernels of the CPU's
// instruction set, re-executing the program once when OpenBLAS picked
// older ones (see the package documentation); a successful re-execution
// does not return. It changes the environment only for the processes it
// starts: the restarted process keeps CoreEnv set, so that programs it
// runs load the same kernels without another restart, and loses GuardEnv.
//
// It returns an error only when kernels that failed Check are loaded and
// the restart with OpenBLAS's own choice failed: the program should then
// stop rather than compute with them.
func UseBestKernels() (Kernels, error) {
	if g, ok := os.LookupEnv(GuardEnv); ok {
		os.Unsetenv(GuardEnv)
		return restarted(g)
	}
	k := Kernels{Core: la.BLASCore()}
	picked := k.Core
	if v, ok := testEnv("PICKED"); ok {
		picked = v
	}
	want := wantCore(os.LookupEnv, picked, la.BLASConfig(), cpuFeatures())
	if want == "" {
		return k, nil
	}
	err := restart(want, guardCheck+picked)
	k.Note = fmt.Sprintf("OpenBLAS runs its %s kernels; restarting with its %s kernels, made for this CPU, failed: %v (set %s=%s to load them)",
		picked, want, err, CoreEnv, want)
	return k, nil
}

// restarted is UseBestKernels in a process it started, with guard the
// value of GuardEnv.
func restarted(guard string) (Kernels, error) {
	k := Kernels{Core: la.BLASCore()}
	switch {
	case strings.HasPrefix(guard, guardCheck):
		picked := strings.TrimPrefix(guard, guardCheck)
		// OpenBLAS spins forever when it cannot map its buffers (a low
		// ulimit -v): fail rather than hang in Check.
		if err := la.Probe(probeTimeout); err != nil {
			return k, err
		}
		corrupt = corrupt || testEnvSet("CORRUPT")
		if err := Check(); err != nil {
			msg := fmt.Sprintf("OpenBLAS's %s kernels failed a check against gonum's pure-Go BLAS and LAPACK (%v); running its %s kernels", k.Core, err, picked)
			rerr := restart(picked, guardFellBack+msg)
			return k, fmt.Errorf("%s, but the restart failed: %v", msg, rerr)
		}
		if !strings.EqualFold(k.Core, picked) {
			k.Picked = picked
		}
	case strings.HasPrefix(guard, guardFellBack):
		k.Note = strings.TrimPrefix(guard, guardFellBack)
	}
	return k, nil
}

// probeTimeout bounds la.Probe's few milliseconds of BLAS calls.
const probeTimeout = 10 * time.Second

// restart re-executes the program with CoreEnv=core and GuardEnv=guard
// added to its environment. It returns only when that fails, with the
// environment as it was.
func restart(core, guard string) error {
	oldCore, hadCore := os.LookupEnv(CoreEnv)
	os.Setenv(CoreEnv, core)
	os.Setenv(GuardEnv, guard)
	err := execSelf()
	os.Unsetenv(GuardEnv)
	if hadCore {
		os.Setenv(CoreEnv, oldCore)
	} else {
		os.Unsetenv(CoreEnv)
	}
	return err
}

// execSelf replaces the process with a new run of its own executable,
// with the same arguments and the current environment; it returns only
// on failure. Tests replace it.
var execSelf = reexec

// testHooks, set to "1" at link time (go build -ldflags "-X
// github.com/passgp-fast/passgp-fast/la/blasinit.testHooks=1"), lets the
// environment variables PASSGP_BLAS_TEST_PICKED (a core name to take for
// OpenBLAS's own choice, simulating a CPU model it does not know) and
// PASSGP_BLAS_TEST_CORRUPT (make Check fail) drive UseBestKernels in
// end-to-end tests. Programs built without it ignore them.
var testHooks string

// testEnv returns PASSGP_BLAS_TEST_<name> when testHooks is on and the
// variable is set and not empty.
func testEnv(name string) (string, bool) {
	if testHooks != "1" {
		return "", false
	}
	v := os.Getenv("PASSGP_BLAS_TEST_" + name)
	return v, v != ""
}

func testEnvSet(name string) bool {
	_, ok := testEnv(name)
	return ok
}
