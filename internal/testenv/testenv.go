// Package testenv holds what the project's tests share: it lets tests
// that need ../shared (the data sets and the GPML fixtures) skip on a bare
// clone but fail where the data must be present (CI sets
// PASSGP_REQUIRE_SHARED=1, .ci/run), and it generates the small toy task
// several packages' tests train on (Toy).
package testenv

import (
	"os"
	"testing"
)

// RequireSharedEnv is the environment variable that turns a missing
// ../shared into a test failure.
const RequireSharedEnv = "PASSGP_REQUIRE_SHARED"

// SharedRequired reports whether RequireSharedEnv is set to a non-empty
// value other than 0.
func SharedRequired() bool {
	v := os.Getenv(RequireSharedEnv)
	return v != "" && v != "0"
}

// MissingShared skips t because something from ../shared is missing, or
// fails it when SharedRequired.
func MissingShared(t testing.TB, format string, args ...any) {
	t.Helper()
	if SharedRequired() {
		t.Fatalf("%s is set, but: "+format, append([]any{RequireSharedEnv}, args...)...)
		return
	}
	t.Skipf(format, args...)
}
