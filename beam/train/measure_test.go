package train

import (
	"bytes"
	"context"
	"math"
	"os"
	"testing"
	"time"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
)

// TestMeasure trains on the binary data file named by the environment
// variable PASSGP_BEAM_N1E5 (skipped when unset; e.g. `go run
// ./bench/gen --n 100000 --flip 0.05 --seed 1 --out /tmp/n1e5.pgd`)
// with the default configuration, in this process and with its scoring
// on Beam (Prism, two worker groups), checks that the models and their
// predictions on the training data are the same bit for bit, and logs
// both wall times.
func TestMeasure(t *testing.T) {
	path := os.Getenv("PASSGP_BEAM_N1E5")
	if path == "" {
		t.Skip("PASSGP_BEAM_N1E5 not set")
	}
	ctx := context.Background()
	src, err := data.OpenBinary(ctx, path, data.BinaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	start := time.Now()
	local, err := passgpfast.FitBinary(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	tLocal := time.Since(start)
	r, err := New(ctx, Options{Data: path, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	start = time.Now()
	remote, err := passgpfast.FitBinary(ctx, src, passgpfast.WithRemoteScorer(r))
	if err != nil {
		t.Fatal(err)
	}
	tBeam := time.Since(start)
	t.Logf("N = %d: in-process FitBinary %v, with Beam scoring (Prism, 2 workers) %v", src.Len(), tLocal.Round(time.Millisecond), tBeam.Round(time.Millisecond))
	if !bytes.Equal(modelBytes(t, local), modelBytes(t, remote)) {
		t.Error("the models differ")
	}
	ds, err := data.ReadBinary(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := local.PredictDataset(ctx, ds)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := remote.PredictDataset(ctx, ds)
	if err != nil {
		t.Fatal(err)
	}
	a, b := pl.Prob.RawMatrix().Data, pr.Prob.RawMatrix().Data
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			t.Fatalf("probability %d differs: %v vs %v", i, a[i], b[i])
		}
	}
}
