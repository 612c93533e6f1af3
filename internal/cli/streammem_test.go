package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/synth"
)

// TestStreamMaxMem: --max-mem bounds a streamed training run's estimated
// memory (streamThreads) by lowering its threads, which leaves the model
// as it is, and refuses a run that does not fit with one thread, naming
// the figures.
func TestStreamMaxMem(t *testing.T) {
	ds, err := synth.Dataset(synth.Task{Classes: 2, D: 4}, 600, 3)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	x := filepath.Join(dir, "x.pgd")
	if err := data.WriteBinary(context.Background(), x, data.NewMemSource(ds), data.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// 600 points, budget ⌈12·√600⌉ = 294: 8·(294·4 + 4·294² + 256·298) bytes
	// ≈ 3.4 MB a thread and 17 KB for the points.
	var tf trainFlags
	tf.cfg.Method, tf.cfg.MaxActive, tf.df.maxMemGiB = "passgp", -1, 16
	if got, err := tf.streamThreads(600, 4, 2); err != nil || got != 2 {
		t.Errorf("16 GiB, 2 threads: %d, %v; want 2", got, err)
	}
	tf.df.maxMemGiB = 0.004 // 4.3 MB
	if got, err := tf.streamThreads(600, 4, 2); err != nil || got != 1 {
		t.Errorf("0.004 GiB, 2 threads: %d, %v; want 1", got, err)
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	two, one := filepath.Join(dir, "two.pgp"), filepath.Join(dir, "one.pgp")
	if code, _, e := runCLI(t, "train", "--data", x, "--model", two, "--threads", "2", "--quiet"); code != 0 {
		t.Fatalf("train --threads 2: %s", e)
	}
	code, _, e := runCLI(t, "train", "--data", x, "--model", one, "--threads", "2", "--max-mem", "0.004")
	if code != 0 || !strings.Contains(e, "leaves room for 1 of 2 threads") {
		t.Fatalf("train --max-mem 0.004: exit %d: %s", code, e)
	}
	pTwo, pOne := filepath.Join(dir, "two.csv"), filepath.Join(dir, "one.csv")
	for m, p := range map[string]string{two: pTwo, one: pOne} {
		if code, _, e := runCLI(t, "predict", "--model", m, "--data", x, "--out", p); code != 0 {
			t.Fatalf("predict: %s", e)
		}
	}
	if read(pOne) != read(pTwo) {
		t.Error("the model trained on 1 thread within --max-mem predicts unlike the one trained on 2")
	}
	code, _, e = runCLI(t, "train", "--data", x, "--model", one, "--max-mem", "0.001")
	if code != exitUsage || !strings.Contains(e, "--max-mem 0.001 GiB is less than") || !strings.Contains(e, "294 active points") {
		t.Errorf("train --max-mem 0.001: exit %d, want a usage error naming the figures: %s", code, e)
	}
}
