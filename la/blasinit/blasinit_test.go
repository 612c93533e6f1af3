package blasinit

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/passgp-fast/passgp-fast/la"
)

// execCall records an execSelf call: the environment it would pass.
type execCall struct{ core, guard string }

// fakeExec replaces execSelf for the test with one that records the call
// and fails, as a failed execve returns.
func fakeExec(t *testing.T) *[]execCall {
	t.Helper()
	var calls []execCall
	old := execSelf
	execSelf = func() error {
		calls = append(calls, execCall{os.Getenv(CoreEnv), os.Getenv(GuardEnv)})
		return errors.New("exec refused")
	}
	t.Cleanup(func() { execSelf = old })
	return &calls
}

// unsetenv unsets k for the rest of the test.
func unsetenv(t *testing.T, k string) {
	t.Setenv(k, "")
	os.Unsetenv(k)
}

// TestUseBestKernels follows UseBestKernels from the process OpenBLAS
// picked its kernels in (simulated with the test hook) to the restarted
// one, with execve replaced by a recorder.
func TestUseBestKernels(t *testing.T) {
	want := wantCore(func(string) (string, bool) { return "", false }, "Prescott", la.BLASConfig(), cpuFeatures())
	if want == "" {
		t.Skipf("no kernels better than Prescott's to load (%q, %+v)", la.BLASConfig(), cpuFeatures())
	}
	testHooks = "1"
	defer func() { testHooks = "" }()
	t.Setenv("PASSGP_BLAS_TEST_PICKED", "Prescott")
	unsetenv(t, GuardEnv)
	unsetenv(t, AutoEnv)
	core := la.BLASCore()

	t.Run("restart", func(t *testing.T) {
		unsetenv(t, CoreEnv)
		calls := fakeExec(t)
		k, err := UseBestKernels()
		if err != nil || len(*calls) != 1 || (*calls)[0] != (execCall{want, guardCheck + "Prescott"}) {
			t.Fatalf("err %v, exec calls %+v, want one with %s=%s", err, *calls, CoreEnv, want)
		}
		if k.Core != core || k.Picked != "" || !strings.Contains(k.Note, "failed: exec refused") {
			t.Errorf("after a failed restart: %+v", k)
		}
		if _, ok := os.LookupEnv(CoreEnv); ok || os.Getenv(GuardEnv) != "" {
			t.Errorf("the environment was not restored: %s=%q %s=%q", CoreEnv, os.Getenv(CoreEnv), GuardEnv, os.Getenv(GuardEnv))
		}
	})
	for _, env := range []map[string]string{{CoreEnv: "Prescott"}, {AutoEnv: "0"}} {
		t.Run("respect "+strings.Join(keys(env), ","), func(t *testing.T) {
			unsetenv(t, CoreEnv)
			for k, v := range env {
				t.Setenv(k, v)
			}
			calls := fakeExec(t)
			if k, err := UseBestKernels(); err != nil || len(*calls) != 0 || k != (Kernels{Core: core}) {
				t.Errorf("%+v, %v, exec calls %+v, want none", k, err, *calls)
			}
		})
	}
	t.Run("restarted", func(t *testing.T) {
		t.Setenv(GuardEnv, guardCheck+"Prescott")
		calls := fakeExec(t)
		k, err := UseBestKernels()
		if err != nil || len(*calls) != 0 || k.Core != core || (k.Picked == "Prescott") != !strings.EqualFold(core, "Prescott") || k.Note != "" {
			t.Errorf("%+v, %v, exec calls %+v", k, err, *calls)
		}
		if _, ok := os.LookupEnv(GuardEnv); ok {
			t.Errorf("%s still set", GuardEnv)
		}
	})
	t.Run("failed check", func(t *testing.T) {
		t.Setenv(GuardEnv, guardCheck+"Prescott")
		t.Setenv("PASSGP_BLAS_TEST_CORRUPT", "1")
		defer func() { corrupt = false }()
		calls := fakeExec(t)
		_, err := UseBestKernels()
		if err == nil || len(*calls) != 1 || (*calls)[0].core != "Prescott" || !strings.HasPrefix((*calls)[0].guard, guardFellBack) {
			t.Fatalf("%v, exec calls %+v, want one back to Prescott", err, *calls)
		}
		msg := strings.TrimPrefix((*calls)[0].guard, guardFellBack)
		if !strings.Contains(msg, "failed a check") || !strings.Contains(err.Error(), msg) {
			t.Errorf("fallback message %q, error %v", msg, err)
		}
		t.Setenv(GuardEnv, (*calls)[0].guard)
		if k, err := UseBestKernels(); err != nil || k.Note != msg || k.Picked != "" {
			t.Errorf("after the fallback: %+v, %v, want the note %q", k, err, msg)
		}
	})
}

func keys(m map[string]string) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	return s
}

func TestKernelsString(t *testing.T) {
	for _, c := range []struct {
		k    Kernels
		want string
	}{
		{Kernels{Core: "Cooperlake"}, "Cooperlake kernels"},
		{Kernels{}, "pure Go kernels"},
		{Kernels{Core: "SkylakeX", Picked: "Prescott", Note: "x"}, "SkylakeX kernels (chosen for this CPU in place of OpenBLAS's Prescott)"},
	} {
		if got := c.k.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.k, got, c.want)
		}
	}
}
