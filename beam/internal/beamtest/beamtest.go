// Package beamtest holds what the beam module's tests share.
package beamtest

import (
	"os"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// Main is a test package's TestMain: it starts Beam (beam.Init) and runs
// the tests with TMPDIR a directory of their own, named with prefix and
// removed afterwards: Beam's loopback runs leave an empty file there each
// (a placeholder worker binary), and the tests' files go there too.
func Main(m *testing.M, prefix string) {
	beam.Init()
	os.Exit(runInTempDir(m, prefix))
}

func runInTempDir(m *testing.M, prefix string) int {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	os.Setenv("TMPDIR", dir)
	return m.Run()
}
