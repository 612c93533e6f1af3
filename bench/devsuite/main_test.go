package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
)

// TestSuiteEndToEnd runs the command on a tiny suite (two generated sets
// of the --quick suite, 2 folds) with the candidate equal to the
// defaults and a second baseline: every figure is in range with a
// finite standard error, the candidate's difference to the identical
// defaults is exactly 0 (one code path run twice, same seed), and the
// last fold's figures match `eval --json` on the same model and test
// file (error exactly; Brier to 1e-9; NLP, which eval computes from the
// latents, to 1e-6).
func TestSuiteEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and trains 12 models")
	}
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	rep, out := runReport(t, filepath.Join(dir, "r.json"), "--sets", "gen-noise,gen-xor", "--quick", "--k", "2", "--baseline", "--kernel se",
		"--candidate", "", "--work", work, "--data-dir", dir)
	if len(rep.Sets) != 2 || len(rep.Summaries) != 2 {
		t.Fatalf("%d sets and %d summaries, want 2 and 2", len(rep.Sets), len(rep.Summaries))
	}
	for _, s := range rep.Sets {
		checkSet(t, s)
	}
	if !strings.Contains(out, "held-out estimate") {
		t.Errorf("report lacks the held-out estimates:\n%s", out)
	}
	if !strings.Contains(out, "summary, candidate against defaults over 2 sets (beyond 1 SE): error better 0, worse 0; Brier better 0, worse 0; NLP better 0, worse 0") {
		t.Errorf("report lacks the summary of identical columns:\n%s", out)
	}
	checkAgainstEval(t, work, rep.Sets[1])
}

// runReport runs the suite with args and --json jsonF, and returns the
// report read back from jsonF and the text report.
func runReport(t *testing.T, jsonF string, args ...string) (Report, string) {
	t.Helper()
	var out, log bytes.Buffer
	if err := run(context.Background(), append(args, "--json", jsonF), &out, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	b, err := os.ReadFile(jsonF)
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return rep, out.String()
}

// checkSet checks one set's figures.
func checkSet(t *testing.T, s SetResult) {
	t.Helper()
	if s.Skipped != "" || s.N != 600 || len(s.Columns) != 3 || len(s.Diffs) != 2 {
		t.Fatalf("%s: skipped %q, %d points, %d columns, %d differences; want 600, 3, 2", s.Name, s.Skipped, s.N, len(s.Columns), len(s.Diffs))
	}
	for _, c := range s.Columns {
		for _, st := range []struct {
			name   string
			v      Stat
			lo, hi float64
		}{{"error", c.Error, 0, 1}, {"Brier", c.Brier, 0, 2}, {"NLP", c.NLP, 0, 700}, {"seconds", c.Seconds, 0, math.Inf(1)}} {
			if !(st.v.Mean >= st.lo && st.v.Mean <= st.hi) || math.IsNaN(st.v.SE) || math.IsInf(st.v.SE, 0) || st.v.SE < 0 {
				t.Errorf("%s %s %s: %+v, want a mean in [%v, %v] and a finite SE", s.Name, c.Name, st.name, st.v, st.lo, st.hi)
			}
		}
		if len(c.Folds) != 2 || c.Folds[0].Test+c.Folds[1].Test != 600 || c.Folds[0].Train != c.Folds[1].Test {
			t.Errorf("%s %s: folds %+v, want two halves of 600", s.Name, c.Name, c.Folds)
		}
		if !c.Estimated || !(c.HeldOut.Mean > 0 && c.HeldOut.Mean < 1) || math.Abs(c.Gap.Mean-(c.HeldOut.Mean-c.Error.Mean)) > 1e-12 || math.IsNaN(c.Gap.SE) {
			t.Errorf("%s %s: held-out estimate %+v, gap %+v, error %+v: want an estimate in (0, 1) and its mean gap to the folds' error", s.Name, c.Name, c.HeldOut, c.Gap, c.Error)
		}
	}
	d := s.Diffs[0]
	if d.A != "defaults" || d.B != "candidate" || d.Error != (Diff{}) || d.Brier != (Diff{}) || d.NLP != (Diff{}) {
		t.Errorf("%s: candidate (= defaults) minus defaults is %+v, want exactly 0", s.Name, d)
	}
	if e := s.Diffs[1].Error; s.Diffs[1].A != "baseline" || math.IsNaN(e.SE) || e.SE < e.FoldSE || e.SE < e.PointSE {
		t.Errorf("%s: candidate minus baseline %+v: SE is not the larger of finite fold and point SEs", s.Name, s.Diffs[1])
	}
}

// checkAgainstEval scores the last fold's last passgp-fast model with
// eval --json and compares it with the suite's figures.
func checkAgainstEval(t *testing.T, work string, s SetResult) {
	t.Helper()
	sd := filepath.Join(work, s.Name)
	b, err := exec.Command(filepath.Join(work, "passgp-fast"), "eval", "--json", "--model", filepath.Join(sd, "model.pgp"), "--data", filepath.Join(sd, "test.libsvm")).Output()
	if err != nil {
		t.Fatal(err)
	}
	var ev struct{ Error, Brier, NLP float64 }
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	f := s.Columns[len(s.Columns)-1].Folds[1]
	if ev.Error != f.Error || math.Abs(ev.Brier-f.Brier) > 1e-9 || math.Abs(ev.NLP-f.NLP) > 1e-6 {
		t.Errorf("%s last fold: suite error %v, Brier %v, NLP %v; eval %+v", s.Name, f.Error, f.Brier, f.NLP, ev)
	}
}

// TestSuiteSkipsAbsent: a set whose file is absent is reported as
// skipped, and the run goes on; an unknown set name is an error.
func TestSuiteSkipsAbsent(t *testing.T) {
	dir := t.TempDir()
	var out, log bytes.Buffer
	args := []string{"--sets", "usps,ijcnn", "--data-dir", dir, "--bin", filepath.Join(dir, "none"), "--work", dir}
	if err := run(context.Background(), args, &out, &log); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"usps: skipped (data absent: ", "ijcnn: skipped (data absent: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if err := run(context.Background(), []string{"--sets", "nosuchset"}, &out, &log); err == nil || !strings.Contains(err.Error(), `no set "nosuchset"`) {
		t.Errorf("unknown set: %v", err)
	}
}

// TestSuiteLIBSVM: with --libsvm, LIBSVM's column has figures in range
// (where svm-train is on PATH).
func TestSuiteLIBSVM(t *testing.T) {
	if testing.Short() || !libsvm.Available() {
		t.Skip("needs svm-train and svm-predict on PATH (libsvm-tools); trains models")
	}
	dir := t.TempDir()
	jsonF := filepath.Join(dir, "r.json")
	var out, log bytes.Buffer
	args := []string{"--sets", "gen-xor", "--quick", "--k", "2", "--libsvm", "--json", jsonF}
	if err := run(context.Background(), args, &out, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	b, err := os.ReadFile(jsonF)
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	c := rep.Sets[0].Columns[2]
	if c.Name != "libsvm" || !(c.Error.Mean >= 0 && c.Error.Mean <= 1) || !(c.Brier.Mean >= 0 && c.Brier.Mean <= 2) || !(c.NLP.Mean > 0) || len(rep.Sets[0].Diffs) != 1 {
		t.Errorf("LIBSVM column %+v, %d differences (want 1: LIBSVM has none)", c, len(rep.Sets[0].Diffs))
	}
}

// TestColumnsTrainSeed: --train-seed puts train's --seed before every
// passgp column's flags (a candidate's own --seed, later, wins), and
// without it the columns carry only their flags.
func TestColumnsTrainSeed(t *testing.T) {
	for _, c := range []struct {
		args []string
		want [][]string
	}{
		{[]string{"--candidate", "--kernel se"}, [][]string{{}, {"--kernel", "se"}}},
		{[]string{"--train-seed", "2", "--baseline", "--p-inc 0.5", "--candidate", "--seed 3"},
			[][]string{{"--seed", "2"}, {"--seed", "2", "--p-inc", "0.5"}, {"--seed", "2", "--seed", "3"}}},
	} {
		o, err := parseFlags(c.args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		cols := o.columns()
		if len(cols) != len(c.want) {
			t.Fatalf("%q: %d columns, want %d", c.args, len(cols), len(c.want))
		}
		for i, col := range cols {
			if !slices.Equal(col.Args, c.want[i]) {
				t.Errorf("%q: column %s has %q, want %q", c.args, col.Name, col.Args, c.want[i])
			}
		}
	}
}
