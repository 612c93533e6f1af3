package cli

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/passgp-fast/passgp-fast/synth"
)

// estimateRe matches train's held-out estimate line.
var estimateRe = regexp.MustCompile(`held-out estimate on the (\d+) training points .*: error ([0-9.]+)% \(\d+ of \d+\), Brier ([0-9.]+), NLP ([0-9.]+), ECE ([0-9.]+)`)

// testRe matches the error, Brier and NLP lines of train --test's report.
var testRe = regexp.MustCompile(`test error +([0-9.]+) .*\nBrier score +([0-9.]+)\nmean neg\. log pred\. +([0-9.]+)`)

// TestTrainHeldOutEstimate: train reports the error, Brier score and NLP
// of its training points' held-out predictions, an estimate of the test
// figures that reads no test data. On noisy synthetic tasks (5% flipped
// labels, irrelevant features; binary and three classes) with train's
// defaults it lies within a few standard errors of the figures on 4000
// fresh points, and it does not depend on the --test file.
func TestTrainHeldOutEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on 1500 points with train's defaults")
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		task synth.Task
	}{
		{"binary", synth.Task{D: 10, Relevant: 4, Flip: 0.05}},
		{"three classes", synth.Task{Classes: 3, D: 10, Relevant: 5, Flip: 0.05}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := func(n string) string { return filepath.Join(dir, fmt.Sprintf("%d-%s", tc.task.Classes, n)) }
			files := map[string]struct {
				n    int
				seed uint64
			}{"train": {1500, 31}, "test": {4000, 32}, "other": {500, 33}}
			for name, f := range files {
				ds, err := synth.Dataset(tc.task, f.n, f.seed)
				if err != nil {
					t.Fatal(err)
				}
				writeLIBSVM(t, p(name), ds)
			}
			run := func(test string) (est, got []float64) {
				t.Helper()
				code, out, e := runCLI(t, "train", "--data", p("train"), "--model", p("m.pgp"), "--test", p(test), "--quiet", "--threads", "2")
				if code != 0 {
					t.Fatalf("train: exit %d: %s", code, e)
				}
				m := estimateRe.FindStringSubmatch(out)
				if m == nil || m[1] != "1500" {
					t.Fatalf("no held-out estimate for 1500 points in:\n%s", out)
				}
				g := testRe.FindStringSubmatch(out)
				if g == nil {
					t.Fatalf("no test figures in:\n%s", out)
				}
				return floats(t, m[2:]), floats(t, g[1:])
			}
			est, test := run("test")
			est[0] /= 100
			// Tolerances: a few standard errors of the two error rates
			// (1500 and 4000 points at about 8-12%), and of Brier and NLP.
			for i, tol := range []float64{0.03, 0.03, 0.06} {
				if math.Abs(est[i]-test[i]) > tol {
					t.Errorf("%s: held-out estimate [error Brier NLP] %.4f, test %.4f (tolerance %.2f)", tc.name, est[:3], test, tol)
					break
				}
			}
			other, _ := run("other")
			other[0] /= 100
			for i := range est {
				if other[i] != est[i] {
					t.Errorf("the estimate depends on the --test file: %v against %v", other, est)
					break
				}
			}
		})
	}
}

func floats(t *testing.T, s []string) []float64 {
	t.Helper()
	v := make([]float64, len(s))
	for i, f := range s {
		var err error
		if v[i], err = strconv.ParseFloat(f, 64); err != nil {
			t.Fatal(err)
		}
	}
	return v
}
