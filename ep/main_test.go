package ep

import (
	"os"
	"testing"

	"github.com/passgp-fast/passgp-fast/la"
)

// TestMain runs the tests with single-threaded BLAS: the fixtures are
// small (n <= 500), where OpenBLAS threads only add synchronisation on the
// shared 2-core machine. EP_TEST_THREADS overrides it.
func TestMain(m *testing.M) {
	if os.Getenv("EP_TEST_THREADS") == "" {
		la.SetBLASThreads(1)
	}
	os.Exit(m.Run())
}
