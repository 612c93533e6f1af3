package train

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/beam/internal/beamtest"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/synth"
)

func TestMain(m *testing.M) { beamtest.Main(m, "train-test-") }

// dataFile writes n generated points of a task of the given classes (4
// features, 5% of labels flipped, seed 7) to a binary data file in t's
// temporary directory and returns its path and the file opened.
func dataFile(t *testing.T, classes, n int) (string, *data.BinarySource) {
	t.Helper()
	ctx := context.Background()
	ds, err := synth.Dataset(synth.Task{Classes: classes, D: 4, Flip: 0.05}, n, 7)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "train.pgd")
	if err := data.WriteBinary(ctx, path, data.NewMemSource(ds), data.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	src, err := data.OpenBinary(ctx, path, data.BinaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return path, src
}

// modelBytes returns c's model file with the training times zeroed, the
// one part of it that two runs of the same training do not share.
func modelBytes(t *testing.T, c *passgpfast.Classifier) []byte {
	t.Helper()
	for i := range c.Model().Elapsed {
		c.Model().Elapsed[i] = 0
	}
	var b bytes.Buffer
	if err := c.Save(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// fitOptions are the tests' training options: small batches, so that a
// run is a few pipelines, with the inputs scaled (the task carries the
// scaling).
func fitOptions() []passgpfast.Option {
	return []passgpfast.Option{passgpfast.WithThreads(1), passgpfast.WithSchedule(50, 3, 2), passgpfast.WithScale("standard")}
}
