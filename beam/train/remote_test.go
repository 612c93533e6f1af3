package train

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/score"
)

// TestFitBinaryBeam: FitBinary whose scoring runs on Beam (Prism, two
// worker groups) gives the model file of FitBinary in this process, byte
// for byte, for a binary task and a three-class one (whose classes call
// the remote side by side), with parts of one chunk (many parts a call)
// and of the default size.
func TestFitBinaryBeam(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		classes, n, partRows int
	}{
		{2, 900, score.Chunk},
		{3, 600, 0},
	} {
		t.Run(fmt.Sprintf("%d classes", tc.classes), func(t *testing.T) {
			path, src := dataFile(t, tc.classes, tc.n)
			local, err := passgpfast.FitBinary(ctx, src, fitOptions()...)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			r, err := New(ctx, Options{Data: path, Workers: 2, Dir: dir, PartRows: tc.partRows})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			remote, err := passgpfast.FitBinary(ctx, src, append(fitOptions(), passgpfast.WithRemoteScorer(r))...)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(modelBytes(t, local), modelBytes(t, remote)) {
				t.Error("the model differs from FitBinary's in this process")
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("%d files left in the part directory", len(left))
			}
		})
	}
}
