package testenv

import (
	"testing"
)

// recorder records how MissingShared ended a test.
type recorder struct {
	testing.TB
	fatal, skip bool
}

func (r *recorder) Helper()                        {}
func (r *recorder) Fatalf(format string, _ ...any) { r.fatal = true }
func (r *recorder) Skipf(format string, _ ...any)  { r.skip = true }

func TestMissingShared(t *testing.T) {
	for _, tc := range []struct {
		env         string
		fatal, skip bool
	}{{"", false, true}, {"0", false, true}, {"1", true, false}} {
		t.Setenv(RequireSharedEnv, tc.env)
		r := &recorder{TB: t}
		MissingShared(r, "missing %s", "x")
		if r.fatal != tc.fatal || r.skip != tc.skip {
			t.Errorf("%s=%q: fatal %v skip %v, want %v %v", RequireSharedEnv, tc.env, r.fatal, r.skip, tc.fatal, tc.skip)
		}
	}
}
