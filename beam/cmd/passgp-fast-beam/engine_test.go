package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/internal/cli"
	"github.com/passgp-fast/passgp-fast/synth"
)

// TestTrainEngineBeam: passgp-fast-beam train --engine beam (its scoring
// on Prism in this process, 2 part groups) writes a model whose
// predictions are byte for byte those of passgp-fast train's in-process
// model, on a 3-class task whose classes train side by side; with a part
// directory that is a file, it fails, naming it.
func TestTrainEngineBeam(t *testing.T) {
	t.Setenv("PASSGP_BLAS_AUTO", "0") // cli.Main restarts no test binary
	ctx := context.Background()
	ds, err := synth.Dataset(synth.Task{Classes: 3, D: 4}, 600, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	x := filepath.Join(dir, "x.pgd")
	if err := data.WriteBinary(ctx, x, data.NewMemSource(ds), data.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	local, remote := filepath.Join(dir, "local.pgp"), filepath.Join(dir, "beam.pgp")
	var out, errb bytes.Buffer
	if code := cli.Main(ctx, []string{"train", "--data", x, "--model", local, "--quiet"}, &out, &errb, nil); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errb.String())
	}
	errb.Reset()
	notDir := filepath.Join(dir, "not-a-dir")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code := runCLI([]string{"train", "--data", x, "--model", remote, "--engine", "beam", "--shard-dir", notDir, "--quiet"}, &out, &errb); code == 0 || !strings.Contains(errb.String(), notDir) {
		t.Errorf("train --engine beam --shard-dir FILE: exit %d, want an error naming it: %s", code, errb.String())
	}
	errb.Reset()
	if code := runCLI([]string{"train", "--data", x, "--model", remote, "--engine", "beam", "--workers", "2", "--shard-dir", "", "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("train --engine beam: exit %d: %s", code, errb.String())
	}
	predict := func(m string) string {
		var o, e bytes.Buffer
		if code := cli.Main(ctx, []string{"predict", "--model", m, "--data", x}, &o, &e, nil); code != 0 {
			t.Fatalf("predict --model %s: exit %d: %s", m, code, e.String())
		}
		return o.String()
	}
	want, got := predict(local), predict(remote)
	if len(want) == 0 || got != want {
		t.Errorf("predictions of the Beam-trained model differ from the in-process model's (%d and %d bytes)", len(got), len(want))
	}
}
