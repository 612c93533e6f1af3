package cli

import (
	"os"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckpointResumeBoundFITC: with a budget that binds and a FITC
// posterior of 10 inducing inputs (Config.BoundFITC, set through
// testConfig), a run interrupted anywhere (at the end of the binding
// pass; after a finished class) and resumed predicts byte for byte as the
// uninterrupted run: the finished classes' held-out latents travel in the
// checkpoint, so the multi-class calibration is the same. With θ fixed the
// FITC posterior is at that θ; with θ free, at its search's.
func TestCheckpointResumeBoundFITC(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		extra      []string
		ok         func(e string) bool
	}{
		{"fixed θ", "FITC posteriors at the fixed θ", []string{"--hyp-every", "0"}, func(e string) bool {
			return strings.Count(e, ") at theta [4, 2, 0.01]") >= 2
		}},
		{"search", "a FITC posterior at a searched θ", nil, func(e string) bool {
			return strings.Contains(e, "FITC posterior (10 inducing") && !strings.Contains(e, ") at theta [4, 2, 0.01]")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testConfig = func(c *passgpfast.Config) { c.BoundFITC = 10 }
			defer func() { testConfig = nil }()
			f := newFixture(t)
			args := append([]string{"train", "--data", f.train, "--kernel", "se", "--init", "30", "--sub", "3", "--passes", "2",
				"--theta", "4,2,0.01", "--max-active", "25"}, tc.extra...)
			full := filepath.Join(f.dir, "full.pgp")
			code, _, e := runCLI(t, append(args, "--model", full, "--checkpoint", filepath.Join(f.dir, "full.ck"))...)
			if code != 0 {
				t.Fatal(e)
			}
			if !tc.ok(e) {
				t.Fatalf("want %s:\n%s", tc.want, e)
			}
			if testing.Verbose() {
				t.Log(e)
			}
			resumeEverywhere(t, f, args, full, []stopAt{{"batch", 0, 3}, {"batch", 0, 5}, {"classifier", 0, 1}, {"batch", 1, 3}, {"batch", 2, 2}})
		})
	}
}

// stopAt is an interruption: the n-th event (testHook's "batch" or
// "classifier") of classifier k.
type stopAt struct {
	event string
	k, n  int
}

// predictCSV returns the predict command's CSV for model m on f's test
// data.
func predictCSV(t *testing.T, f *fixture, m string) string {
	t.Helper()
	out := filepath.Join(f.dir, "p.csv")
	if code, _, e := runCLI(t, "predict", "--model", m, "--data", f.test, "--out", out); code != 0 {
		t.Fatal(e)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// resumeEverywhere runs train with args (and --checkpoint), interrupted at
// each of stops, resumes it and checks that the resumed model predicts
// byte for byte as the uninterrupted run's model full.
func resumeEverywhere(t *testing.T, f *fixture, args []string, full string, stops []stopAt) {
	t.Helper()
	want := predictCSV(t, f, full)
	oldEvery := checkpointEvery
	checkpointEvery = 0
	defer func() { checkpointEvery, testHook = oldEvery, nil }()
	for _, stop := range stops {
		ck, out := filepath.Join(f.dir, "ck"), filepath.Join(f.dir, "resumed.pgp")
		os.Remove(ck)
		os.Remove(out)
		ctx, cancel := interruptAt(stop.event, stop.k, stop.n)
		code, _, e := runCLICtx(t, ctx, append(args, "--model", out, "--checkpoint", ck, "--quiet")...)
		cancel()
		testHook = nil
		if code != 130 {
			t.Fatalf("stop at %v: code %d, stderr %q", stop, code, e)
		}
		if code, _, e := runCLI(t, "train", "--resume", ck, "--data", f.train, "--model", out, "--quiet"); code != 0 {
			t.Fatalf("resume: %d %s", code, e)
		}
		if got := predictCSV(t, f, out); got != want {
			t.Errorf("stop at %v: the resumed model predicts otherwise than the uninterrupted one", stop)
		}
	}
}
