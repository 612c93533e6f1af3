package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// convert writes a binary file that trains exactly as the text file it
// came from: train streams it, and the same rows, bit for bit, reach the
// same code.
// A truncated binary file is a one-line error naming it.
func TestConvert(t *testing.T) {
	f := newFixture(t)
	out := filepath.Join(f.dir, "train.pgd")
	if code, _, e := runCLI(t, "convert", "--data", f.train, "--out", out); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, e)
	}
	// Training streams a binary file: --max-mem bounds the streamed
	// run's estimate, and names it, where it would bound a dense copy of
	// the text file's data.
	code, _, e := runCLI(t, "train", "--quiet", "--data", out, "--model", filepath.Join(f.dir, "x.pgp"), "--max-mem", "1e-6")
	if code != 2 || !strings.Contains(e, "a streamed run on") {
		t.Errorf("train --max-mem 1e-6 on the binary file: exit %d, want 2 and the streamed run's estimate: %s", code, e)
	}
	for _, extra := range [][]string{nil, {"--scale", "standard"}, {"--positive", "1", "--method", "fpassgp", "--max-active", "40"}} {
		models := make([]string, 2)
		for i, in := range []string{f.train, out} {
			models[i] = filepath.Join(f.dir, []string{"text.pgp", "bin.pgp"}[i])
			args := append([]string{"train", "--quiet", "--threads", "1", "--data", in, "--model", models[i]}, extra...)
			if code, _, e := runCLI(t, args...); code != 0 {
				t.Fatalf("train %v on %s: exit %d: %s", extra, in, code, e)
			}
		}
		if a, b := predictCSV(t, f, models[0]), predictCSV(t, f, models[1]); a != b {
			t.Errorf("train %v: the model trained on the binary file predicts differently", extra)
		}
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(f.dir, "cut.pgd")
	if err := os.WriteFile(cut, raw[:len(raw)-9], 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, e = runCLI(t, "train", "--quiet", "--data", cut, "--model", filepath.Join(f.dir, "x.pgp"))
	if code == 0 || !strings.Contains(e, "cut.pgd") || len(slices.DeleteFunc(strings.Split(strings.TrimSpace(e), "\n"), func(s string) bool { return s == "" })) != 1 {
		t.Errorf("truncated file: exit %d, stderr %q; want a one-line error naming it", code, e)
	}
	if code, _, _ := runCLI(t, "convert", "--data", f.train); code != 2 {
		t.Errorf("convert without --out: exit %d, want 2", code)
	}
}
