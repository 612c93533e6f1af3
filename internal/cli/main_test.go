package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/synth"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// runCLI runs the command in-process.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCLICtx(t, context.Background(), args...)
}

func runCLICtx(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var o, e bytes.Buffer
	code := runContext(ctx, args, &o, &e)
	return code, o.String(), e.String()
}

func writeLIBSVM(t *testing.T, path string, ds *data.Dataset) {
	t.Helper()
	var b strings.Builder
	for i := 0; i < ds.N; i++ {
		fmt.Fprintf(&b, "%v", ds.Y[i])
		for j, v := range ds.Row(i) {
			fmt.Fprintf(&b, " %d:%v", j+1, v)
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fixture writes small training and test files: a 3-class problem and a
// binary one (classes 0 and 1 of it).
type fixture struct {
	dir                                 string
	train, test, bin, binTest, oneClass string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir()}
	p := func(n string) string { return filepath.Join(f.dir, n) }
	f.train, f.test, f.bin, f.binTest, f.oneClass = p("train.libsvm"), p("test.libsvm"), p("bin.libsvm"), p("bintest.libsvm"), p("one.libsvm")
	tr := synth.Bands(11, 240, 3, 3, synth.BandsNoise)
	te := synth.Bands(12, 120, 3, 3, synth.BandsNoise)
	writeLIBSVM(t, f.train, tr)
	writeLIBSVM(t, f.test, te)
	pick := func(ds *data.Dataset) *data.Dataset {
		var idx []int
		for i, y := range ds.Y {
			if y != 2 {
				idx = append(idx, i)
			}
		}
		s := ds.Subset(idx)
		for i := range s.Y {
			s.Y[i] = 2*s.Y[i] - 1 // labels -1, +1
		}
		return s
	}
	writeLIBSVM(t, f.bin, pick(tr))
	writeLIBSVM(t, f.binTest, pick(te))
	one := tr.Subset([]int{0, 1, 2, 3, 4})
	for i := range one.Y {
		one.Y[i] = 7
	}
	writeLIBSVM(t, f.oneClass, one)
	return f
}

// small training settings: fast, fixed θ.
var fast = []string{"--kernel", "se", "--init", "30", "--sub", "3", "--passes", "1", "--theta", "4,2,0.01", "--hyp-every", "0", "--quiet"}

func TestHelp(t *testing.T) {
	code, out, _ := runCLI(t, "--help")
	if code != 0 || !strings.Contains(out, "Commands:") {
		t.Fatalf("--help: code %d, output %q", code, out)
	}
	trainFlags := []string{"--data", "--labels", "--model", "--positive", "--method", "--kernel", "--theta",
		"--init", "--sub", "--passes", "--p-inc", "--p-del", "--p-exc", "--max-active", "--paper", "--hyp-every",
		"--engine", "--seed", "--threads", "--checkpoint", "--resume", "--quiet"}
	want := map[string][]string{
		"train":   trainFlags,
		"predict": {"--model", "--data", "--labels", "--out"},
		"eval":    {"--model", "--data", "--labels", "--json"},
		"demo":    {"--seed", "--plots"},
		"plot":    {"--model", "--data", "--out"},
	}
	for _, c := range commands {
		for _, h := range []string{"--help", "-h"} {
			code, out, errOut := runCLI(t, c.name, h)
			if code != 0 || errOut != "" || !strings.HasPrefix(out, "Usage: passgp-fast "+c.name) {
				t.Errorf("%s %s: code %d, stdout %q, stderr %q", c.name, h, code, out, errOut)
			}
			for _, fl := range want[c.name] {
				if !strings.Contains(out, "  "+fl+" ") && !strings.Contains(out, "  "+fl+"\n") {
					t.Errorf("%s --help does not document %s", c.name, fl)
				}
			}
		}
		code, out, _ := runCLI(t, "help", c.name)
		if code != 0 || !strings.Contains(out, "Usage: passgp-fast "+c.name) {
			t.Errorf("help %s: code %d", c.name, code)
		}
	}
	if code, _, e := runCLI(t); code != 2 || !strings.Contains(e, "Usage") {
		t.Errorf("no arguments: code %d", code)
	}
	if code, _, e := runCLI(t, "frobnicate"); code != 2 || !strings.Contains(e, "unknown command") {
		t.Errorf("unknown command: code %d, %q", code, e)
	}
}

func TestTrainPredictEvalMulticlass(t *testing.T) {
	f := newFixture(t)
	m := filepath.Join(f.dir, "m.pgp")
	code, out, errOut := runCLI(t, append([]string{"train", "--data", f.train, "--model", m}, fast...)...)
	if code != 0 {
		t.Fatalf("train: code %d, %s", code, errOut)
	}
	if errOut != "" {
		t.Errorf("--quiet train wrote to stderr: %q", errOut)
	}
	if !strings.Contains(out, "one-vs-rest") {
		t.Errorf("train output %q", out)
	}
	mod, err := model.Load(m)
	if err != nil {
		t.Fatal(err)
	}
	if mod.Mode != model.OneVsRest || len(mod.Binaries) != 3 || mod.D() != 3 {
		t.Fatalf("model: mode %v, %d classifiers, d %d", mod.Mode, len(mod.Binaries), mod.D())
	}
	var opts map[string]any
	if err := json.Unmarshal(mod.Options, &opts); err != nil || opts["method"] != "passgp" || opts["init"] != 30.0 {
		t.Errorf("stored options %s (%v)", mod.Options, err)
	}

	csv := filepath.Join(f.dir, "p.csv")
	if code, _, e := runCLI(t, "predict", "--model", m, "--data", f.test, "--out", csv); code != 0 {
		t.Fatalf("predict: %d %s", code, e)
	}
	b, _ := os.ReadFile(csv)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 121 || lines[0] != "predicted,p_0,p_1,p_2" {
		t.Fatalf("predict CSV: %d lines, header %q", len(lines), lines[0])
	}
	for _, l := range lines[1:] {
		var s float64
		fs := strings.Split(l, ",")
		for _, v := range fs[1:] {
			var p float64
			fmt.Sscan(v, &p)
			s += p
		}
		if math.Abs(s-1) > 1e-9 {
			t.Fatalf("probabilities of %q sum to %v", l, s)
		}
	}
	// predict to stdout gives the same.
	_, so, _ := runCLI(t, "predict", "--model", m, "--data", f.test)
	if so != string(b) {
		t.Error("predict to stdout differs from --out")
	}

	code, out, e := runCLI(t, "eval", "--model", m, "--data", f.test, "--json")
	if code != 0 {
		t.Fatalf("eval: %d %s", code, e)
	}
	var r struct {
		N             int       `json:"n"`
		Error         *float64  `json:"error"`
		Brier         *float64  `json:"brier"`
		NLP           *float64  `json:"nlp"`
		PerClassError []float64 `json:"per_class_error"`
		Confusion     [][]int   `json:"confusion"`
		BinaryError   []float64 `json:"binary_error"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("eval --json: %v\n%s", err, out)
	}
	if r.N != 120 || r.Error == nil || r.Brier == nil || r.NLP == nil || len(r.PerClassError) != 3 || len(r.Confusion) != 3 || len(r.BinaryError) != 3 {
		t.Fatalf("eval --json fields: %s", out)
	}
	if *r.Error > 0.35 || *r.Brier <= 0 || *r.Brier > 1 || *r.NLP <= 0 {
		t.Errorf("implausible metrics: %s", out)
	}
	total := 0
	for _, row := range r.Confusion {
		for _, v := range row {
			total += v
		}
	}
	if total != 120 {
		t.Errorf("confusion matrix counts %d points", total)
	}
	code, out, _ = runCLI(t, "eval", "--model", m, "--data", f.test)
	if code != 0 || !strings.Contains(out, "test error") || !strings.Contains(out, "confusion matrix") || !strings.Contains(out, "Brier") {
		t.Errorf("eval report: %s", out)
	}

	// plot
	dir := filepath.Join(f.dir, "plots")
	code, out, e = runCLI(t, "plot", "--model", m+","+m, "--data", f.test, "--out", dir)
	if code != 0 {
		t.Fatalf("plot: %d %s", code, e)
	}
	for _, n := range []string{"per_class.png", "densities.png", "reliability.png", "calibration.png", "error_vs_size.png", "trajectory.png"} {
		if st, err := os.Stat(filepath.Join(dir, n)); err != nil || st.Size() < 1000 {
			t.Errorf("plot did not write %s: %v", n, err)
		}
	}
	m2 := filepath.Join(f.dir, "m2.pgp")
	if code, _, e := runCLI(t, append([]string{"train", "--data", f.train, "--model", m2, "--p-inc", "0.8"}, fast...)...); code != 0 {
		t.Fatal(e)
	}
	code, out, e = runCLI(t, "plot", "--model", m+","+m2, "--data", f.test, "--out", dir, "--x", "p-inc")
	if code != 0 || !strings.Contains(out, "error_vs_pinc.png") {
		t.Fatalf("plot --x p-inc: %d %s %s", code, out, e)
	}
}

func TestBinaryAndPositive(t *testing.T) {
	f := newFixture(t)
	m := filepath.Join(f.dir, "b.pgp")
	if code, _, e := runCLI(t, append([]string{"train", "--data", f.bin, "--model", m, "--method", "fpassgp", "--max-active", "40"}, fast...)...); code != 0 {
		t.Fatalf("train binary: %d %s", code, e)
	}
	mod, err := model.Load(m)
	if err != nil || mod.Mode != model.Binary || len(mod.Binaries[0].Y) != 40 {
		t.Fatalf("binary model: %v %+v", err, mod)
	}
	code, out, e := runCLI(t, "eval", "--model", m, "--data", f.binTest, "--json")
	if code != 0 || !strings.Contains(out, `"classes": [`) {
		t.Fatalf("eval binary: %d %s %s", code, out, e)
	}
	mp := filepath.Join(f.dir, "p.pgp")
	if code, _, e := runCLI(t, append([]string{"train", "--data", f.train, "--model", mp, "--positive", "2"}, fast...)...); code != 0 {
		t.Fatalf("train --positive: %d %s", code, e)
	}
	code, out, _ = runCLI(t, "predict", "--model", mp, "--data", f.test)
	if code != 0 || !strings.HasPrefix(out, "predicted,p_2,p_rest\n") {
		t.Fatalf("predict positive: %d %q", code, out[:min(len(out), 60)])
	}
	if code, out, _ := runCLI(t, "eval", "--model", mp, "--data", f.test, "--json"); code != 0 || !strings.Contains(out, `"rest"`) {
		t.Fatalf("eval positive: %d %s", code, out)
	}
}

// TestTrainTestAndPlot: train --test evaluates the model after training,
// and plot draws the figures that train itself does not.
func TestTrainTestAndPlot(t *testing.T) {
	f := newFixture(t)
	dir := filepath.Join(f.dir, "figs")
	m := filepath.Join(f.dir, "m.pgp")
	code, out, e := runCLI(t, append([]string{"train", "--data", f.train, "--model", m, "--test", f.test}, fast...)...)
	if code != 0 {
		t.Fatalf("train --test: %d %s", code, e)
	}
	if !strings.Contains(out, "test error") || !strings.Contains(out, "evaluation on "+f.test+":") {
		t.Errorf("train --test output: %s", out)
	}
	if code, _, e := runCLI(t, "plot", "--model", m, "--data", f.test, "--out", dir); code != 0 {
		t.Fatalf("plot: %d %s", code, e)
	}
	for _, n := range []string{"per_class.png", "densities.png", "reliability.png", "calibration.png", "trajectory.png", "error_vs_size.png"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("plot: %v", err)
		}
	}
}

func TestBadInput(t *testing.T) {
	f := newFixture(t)
	m := filepath.Join(f.dir, "m.pgp")
	if code, _, e := runCLI(t, append([]string{"train", "--data", f.train, "--model", m}, fast...)...); code != 0 {
		t.Fatal(e)
	}
	malformed := filepath.Join(f.dir, "bad.libsvm")
	os.WriteFile(malformed, []byte("1 1:0.5 2:0.1\n-1 1:abc\n"), 0o644)
	wide := filepath.Join(f.dir, "wide.libsvm")
	os.WriteFile(wide, []byte("1 1:0.5 5:0.1\n0 2:1\n"), 0o644)
	notModel := filepath.Join(f.dir, "notmodel.pgp")
	os.WriteFile(notModel, []byte("this is not a model file at all"), 0o644)
	missing := filepath.Join(f.dir, "missing.libsvm")
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"train missing file", append([]string{"train", "--data", missing, "--model", m}, fast...), 1, "missing.libsvm"},
		{"train one class", append([]string{"train", "--data", f.oneClass, "--model", m}, fast...), 1, "fewer than two classes"},
		{"train malformed", append([]string{"train", "--data", malformed, "--model", m}, fast...), 1, "bad.libsvm"},
		{"train no model", []string{"train", "--data", f.train}, 2, "--model"},
		{"train no data", []string{"train", "--model", m}, 2, "--data"},
		{"train bad flag", []string{"train", "--data", f.train, "--model", m, "--frobnicate"}, 2, "frobnicate"},
		{"train bad method", []string{"train", "--data", f.train, "--model", m, "--method", "svm"}, 2, "method"},
		{"train bad theta", []string{"train", "--data", f.train, "--model", m, "--theta", "1,2"}, 2, "theta"},
		{"train negative theta", []string{"train", "--data", f.train, "--model", m, "--theta", "1,-2,3"}, 2, "theta"},
		{"train bad p-inc", []string{"train", "--data", f.train, "--model", m, "--p-inc", "1.5"}, 2, "p-inc"},
		{"train bad kernel", []string{"train", "--data", f.train, "--model", m, "--kernel", "matern"}, 2, "kernel"},
		{"train bad positive", append([]string{"train", "--data", f.train, "--model", m, "--positive", "9"}, fast...), 1, "positive label 9"},
		{"train stray argument", []string{"train", "--data", f.train, "--model", m, "extra"}, 2, "extra"},
		{"train resume missing", []string{"train", "--data", f.train, "--model", m, "--resume", missing}, 1, "missing.libsvm"},
		{"train resume not checkpoint", []string{"train", "--data", f.train, "--model", m, "--resume", notModel}, 1, "magic"},
		{"predict missing model", []string{"predict", "--model", filepath.Join(f.dir, "nope.pgp"), "--data", f.test}, 1, "nope.pgp"},
		{"predict not a model", []string{"predict", "--model", notModel, "--data", f.test}, 1, "not a passgp-fast file"},
		{"predict wrong dimension", []string{"predict", "--model", m, "--data", wide}, 1, "wide.libsvm"},
		{"predict missing data", []string{"predict", "--model", m, "--data", missing}, 1, "missing.libsvm"},
		{"predict no data", []string{"predict", "--model", m}, 2, "--data"},
		{"eval wrong dimension", []string{"eval", "--model", m, "--data", wide}, 1, "wide.libsvm"},
		{"eval unknown label", []string{"eval", "--model", m, "--data", f.oneClass}, 1, "label 7 is not a class"},
		{"eval malformed", []string{"eval", "--model", m, "--data", malformed}, 1, "bad.libsvm"},
		{"demo bad classes", []string{"demo", "--classes", "1"}, 2, "classes"},
		{"plot no model", []string{"plot", "--data", f.test}, 2, "--model"},
	}
	for _, c := range cases {
		code, out, e := runCLI(t, c.args...)
		if code != c.code {
			t.Errorf("%s: exit code %d, want %d (stderr %q)", c.name, code, c.code, e)
			continue
		}
		if strings.Count(strings.TrimSpace(e), "\n") != 0 || !strings.Contains(e, c.msg) {
			t.Errorf("%s: stderr %q should be one line containing %q", c.name, e, c.msg)
		}
		if strings.Contains(e, "panic") || strings.Contains(out, "panic") {
			t.Errorf("%s: panic", c.name)
		}
	}
}

// interruptAt returns a context that testHook cancels at the n-th event
// of classifier k.
func interruptAt(event string, k, n int) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	seen := 0
	testHook = func(e string, c int) {
		if e == event && c == k {
			if seen++; seen == n {
				cancel()
			}
		}
	}
	return ctx, cancel
}

func TestCheckpointResume(t *testing.T) {
	f := newFixture(t)
	args := []string{"train", "--data", f.train, "--kernel", "se", "--init", "30", "--sub", "3", "--passes", "2", "--theta", "4,2,0.01", "--hyp-every", "0", "--quiet"}
	full := filepath.Join(f.dir, "full.pgp")
	// The uninterrupted run writes a checkpoint too: with one, classes are
	// trained one after another on multi-threaded BLAS, without one side by
	// side on one BLAS thread each, which can differ in the last digits.
	if code, _, e := runCLI(t, append(args, "--model", full, "--checkpoint", filepath.Join(f.dir, "full.ck"))...); code != 0 {
		t.Fatal(e)
	}
	oldEvery := checkpointEvery
	checkpointEvery = 0
	defer func() { checkpointEvery, testHook = oldEvery, nil }()
	for _, stop := range []struct {
		event string
		k     int
		n     int // stop at the n-th such event
	}{{"batch", 0, 2}, {"classifier", 0, 1}, {"batch", 1, 4}} {
		ck := filepath.Join(f.dir, "ck")
		out := filepath.Join(f.dir, "resumed.pgp")
		os.Remove(ck)
		os.Remove(out)
		ctx, cancel := interruptAt(stop.event, stop.k, stop.n)
		code, _, e := runCLICtx(t, ctx, append(args, "--model", out, "--checkpoint", ck)...)
		cancel()
		testHook = nil
		if code != 130 || !strings.Contains(e, "interrupted; checkpoint written to "+ck) {
			t.Fatalf("stop at %v: code %d, stderr %q", stop, code, e)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("stop at %v: an interrupted run wrote the model (%q)", stop, e)
		}
		cp, err := model.LoadCheckpoint(ck)
		if err != nil {
			t.Fatal(err)
		}
		if stop.event == "batch" && cp.State == nil {
			t.Fatalf("stop at %v: checkpoint without a training state", stop)
		}
		if code, _, e := runCLI(t, "train", "--resume", ck, "--data", f.train, "--model", out, "--quiet"); code != 0 {
			t.Fatalf("resume: %d %s", code, e)
		}
		a, _ := model.Load(full)
		b, err := model.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		// The budget is resolved once, from N, and the resumed run keeps
		// the checkpoint's (the same options as the uninterrupted run).
		if string(a.Options) != string(b.Options) || !strings.Contains(string(b.Options), `"max_active":`) {
			t.Errorf("stop at %v: options %s after resume, want %s", stop, b.Options, a.Options)
		}
		for i := range a.Binaries {
			if len(a.Binaries[i].Y) != len(b.Binaries[i].Y) || a.Binaries[i].Post.LogZ != b.Binaries[i].Post.LogZ {
				t.Errorf("stop at %v: classifier %d differs after resume: |A| %d vs %d, log Z %v vs %v", stop, i,
					len(a.Binaries[i].Y), len(b.Binaries[i].Y), a.Binaries[i].Post.LogZ, b.Binaries[i].Post.LogZ)
			}
		}
	}
	// Resuming on other data is refused.
	ck := filepath.Join(f.dir, "ck")
	if code, _, e := runCLI(t, "train", "--resume", ck, "--data", f.test, "--model", filepath.Join(f.dir, "x.pgp")); code != 1 || !strings.Contains(e, "checkpoint") {
		t.Errorf("resume on other data: %d %q", code, e)
	}
}

func TestDemoSmall(t *testing.T) {
	dir := t.TempDir()
	code, out, e := runCLI(t, "demo", "--n", "300", "--test-n", "100", "--classes", "3", "--dim", "3", "--init", "30", "--json", "--plots", dir, "--model", filepath.Join(dir, "demo.pgp"))
	if code != 0 {
		t.Fatalf("demo: %d %s", code, e)
	}
	var r struct {
		N     int     `json:"n"`
		Error float64 `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.N != 100 || r.Error > 0.4 {
		t.Fatalf("demo JSON %v: %s", err, out)
	}
	if _, err := model.Load(filepath.Join(dir, "demo.pgp")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "densities.png")); err != nil {
		t.Fatal(err)
	}
}

// TestDemoProgress: the demo's progress lines number each class among
// all the classifiers it trains.
func TestDemoProgress(t *testing.T) {
	code, _, e := runCLI(t, "demo", "--n", "300", "--test-n", "50", "--classes", "3", "--dim", "3", "--init", "30")
	if code != 0 {
		t.Fatalf("demo: %d %s", code, e)
	}
	for k := 1; k <= 3; k++ {
		if want := fmt.Sprintf("(%d/3) pass", k); !strings.Contains(e, want) {
			t.Errorf("no %q in the demo's progress:\n%s", want, e)
		}
	}
}

func TestDemoData(t *testing.T) {
	a := synth.Bands(3, 500, 5, 4, synth.BandsNoise)
	b := synth.Bands(3, 500, 5, 4, synth.BandsNoise)
	if !slicesEqual(a.X, b.X) || !slicesEqual(a.Y, b.Y) {
		t.Fatal("demo data not deterministic")
	}
	if err := a.Validate(5); err != nil {
		t.Fatal(err)
	}
}

func slicesEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestEndToEnd builds the binary and runs it as a user would.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := buildBinary(t)
	f := newFixture(t)
	m := filepath.Join(f.dir, "m.pgp")
	cmd := exec.Command(bin, append([]string{"train", "--data", f.train, "--model", m}, fast[:len(fast)-1]...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("train: %v %s", err, stderr.String())
	}
	// stderr is not a terminal here: plain log lines, no carriage returns.
	// A normal exit prints no signal message.
	if s := stderr.String(); !strings.Contains(s, "pass 1/1 batch 3/3") || strings.Contains(s, "\r") || strings.Contains(s, "stopping") {
		t.Errorf("progress log: %q", s)
	}
	out, err := exec.Command(bin, "eval", "--model", m, "--data", f.test, "--json").Output()
	if err != nil || !strings.Contains(string(out), `"per_class_error"`) {
		t.Fatalf("eval: %v %s", err, out)
	}
	c := exec.Command(bin, "eval", "--model", m, "--data", filepath.Join(f.dir, "missing"))
	o, err := c.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || strings.Count(string(o), "\n") != 1 {
		t.Errorf("missing file: %v %q", err, o)
	}
}

func TestProgressLines(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, false, 2)
	p.update(1, passgp.Progress{Class: "3", Pass: 0, Passes: 2, Batch: 4, Batches: 10, Active: 123, LogZ: -45.5, Theta: []float64{4, 64, 0.01}})
	s := b.String()
	for _, w := range []string{"class 3 (2/2)", "pass 1/2", "batch 5/10", "|A|=123", "logZ=-45.5", "theta=[4 64 0.01]", "elapsed", "ETA"} {
		if !strings.Contains(s, w) {
			t.Errorf("progress line %q lacks %q", s, w)
		}
	}
	if strings.Contains(s, "\r") || !strings.HasSuffix(s, "\n") {
		t.Errorf("non-terminal progress should be plain lines: %q", s)
	}
	b.Reset()
	q := newProgress(&b, true, 1)
	q.update(0, passgp.Progress{Passes: 1, Batches: 1})
	q.logf("x")
	if b.Len() != 0 {
		t.Errorf("--quiet printed %q", b.String())
	}
	// A live line (terminal) is redrawn with '\r' and padded over a longer
	// previous line.
	b.Reset()
	l := &progress{w: &b, tty: true, begin: time.Now(), classes: 1}
	l.update(0, passgp.Progress{Pass: 1, Passes: 2, Batch: 9, Batches: 10, Active: 100000, Theta: []float64{1}})
	l.last = time.Time{}
	l.update(0, passgp.Progress{Pass: 1, Passes: 2, Batch: 9, Batches: 10, Active: 1, Theta: []float64{1}})
	l.done()
	out := b.String()
	if strings.Count(out, "\r") != 2 || !strings.HasSuffix(out, "\n") {
		t.Errorf("live progress %q", out)
	}
}

// TestTrainWarnsAtBound: a hyperparameter search that stops at a bound is
// reported on stderr, also with --quiet, and not when θ is fixed. On two
// far-apart clusters the evidence pulls θ to a bound.
func TestTrainWarnsAtBound(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sep.libsvm")
	var b strings.Builder
	for i := 0; i < 40; i++ {
		y := float64(2*(i%2) - 1)
		fmt.Fprintf(&b, "%v 1:%v 2:%v\n", y, 3*y+0.05*float64(i%7-3), 0.1*float64(i%5-2))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(dir, "sep.pgp")
	code, _, e := runCLI(t, "train", "--data", path, "--model", m, "--method", "full", "--scale", "none", "--quiet")
	if code != 0 {
		t.Fatalf("train: %d %s", code, e)
	}
	if !strings.Contains(e, "warning: classifier 1: the hyperparameter search stopped at a bound (") {
		t.Errorf("no bound warning on stderr: %q", e)
	}
	code, _, e = runCLI(t, "train", "--data", path, "--model", m, "--method", "full", "--theta", "4,2,0.01", "--hyp-every", "0", "--quiet")
	if code != 0 || strings.Contains(e, "warning") {
		t.Errorf("fixed θ: code %d, stderr %q", code, e)
	}
}

func TestTrainWarnings(t *testing.T) {
	res := &passgp.Result{
		Model:   &passgp.Binary{Kernel: kernel.SE{Var: 3, Len2: 0.25, Jitter: 0.01}},
		AtBound: []bool{false, true, false},
		Batches: []passgp.BatchStats{{NotConverged: true}, {}, {}},
	}
	w := passgpfast.Warnings(res)
	if len(w) != 2 || !strings.Contains(w[0], "(t2 = 0.25)") || !strings.Contains(w[1], "sweep cap in 1 of 3 batches") {
		t.Errorf("warnings %q", w)
	}
	res.AtBound, res.Batches = []bool{false, false, false}, res.Batches[1:]
	if w := passgpfast.Warnings(res); len(w) != 0 {
		t.Errorf("warnings %q for a clean run", w)
	}
	res.NotConverged = true
	if w := passgpfast.Warnings(res); len(w) != 1 || !strings.Contains(w[0], "final active set hit its sweep cap") {
		t.Errorf("warnings %q for a final EP at its cap", w)
	}
	res.NotConverged, res.FITCNotConverged = false, true
	if w := passgpfast.Warnings(res); len(w) != 1 || !strings.Contains(w[0], "FITC pass hit its sweep cap, also with halved steps") {
		t.Errorf("warnings %q for a FITC pass at its cap", w)
	}
	res.FITCNotConverged, res.HypNotConverged = false, 3
	if w := passgpfast.Warnings(res); len(w) != 1 || !strings.Contains(w[0], "3 EP runs of the hyperparameter search") {
		t.Errorf("warnings %q for the search's EP runs at their cap", w)
	}
	// A binary calibration whose probabilities stay on one side of 1/2,
	// and one that does not.
	res.HypNotConverged = 0
	for _, c := range []struct {
		cal  *calib.Calibration
		warn bool
	}{
		{&calib.Calibration{A: 2, B: []float64{-1}, Eps: 0.7, Kappa: 0.1}, true},  // [0.07, 0.37]
		{&calib.Calibration{A: 2, B: []float64{-1}, Eps: 0.7, Kappa: 0.95}, true}, // [0.665, 0.965]
		{&calib.Calibration{A: 2, B: []float64{-1}, Eps: 0.1, Kappa: 0.3}, false},
		{&calib.Calibration{A: 2, B: []float64{-1, 0.5}, Eps: 0.9}, false},
	} {
		res.Calibration = c.cal
		w := passgpfast.Warnings(res)
		if got := len(w) == 1 && strings.Contains(w[0], "decides the larger class everywhere"); got != c.warn || (!c.warn && len(w) != 0) {
			t.Errorf("calibration %+v: warnings %q", c.cal, w)
		}
	}
}

// TestCLIMatchesLibrary: with no --kernel and no --theta the CLI trains
// what passgp.Train trains with the same options and the CLI's default
// kernel (PASS-GP's and IVM's se+bias with the library's start values,
// passgp.StartKernel). TestEvalMetricsFromLatent checks that eval's metrics
// are the library's.
func TestCLIMatchesLibrary(t *testing.T) {
	f := newFixture(t)
	ds, err := data.Load(f.bin, data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"ivm", "passgp"} {
		m := filepath.Join(f.dir, method+".pgp")
		args := []string{"train", "--data", f.bin, "--model", m, "--method", method, "--init", "20", "--sub", "3", "--passes", "2", "--seed", "5", "--quiet", "--threads", "1", "--scale", "none"}
		if method == "ivm" {
			args = append(args, "--max-active", "30") // IVM's fixed size; PASS-GP's budget never binds here
		}
		if code, _, e := runCLI(t, args...); code != 0 {
			t.Fatalf("%s: train: %s", method, e)
		}
		mod, err := model.Load(m)
		if err != nil {
			t.Fatal(err)
		}
		meth, _ := passgp.ParseMethod(method)
		o := passgp.Options{Method: meth, M: 30, Init: 20, Sub: 3, Passes: 2, Seed: 5, Threads: 1}
		o.Kernel, _ = passgp.StartKernel(passgpfast.DefaultKernel, ds.D)
		if o.Kernel.Name() != "se+bias" {
			t.Fatalf("%s's default kernel %s", method, o.Kernel.Name())
		}
		res, err := passgp.Train(context.Background(), ds.Dense(), ds.Y, &o)
		if err != nil {
			t.Fatal(err)
		}
		got, want := mod.Binaries[0], res.Model
		if got.Kernel.Name() != want.Kernel.Name() || !slices.Equal(got.Kernel.Params(), want.Kernel.Params()) || !slices.Equal(got.Active, want.Active) {
			t.Errorf("%s: CLI kernel %s θ %v |A| %d, library %s θ %v |A| %d", method, got.Kernel.Name(), got.Kernel.Params(), len(got.Active),
				want.Kernel.Name(), want.Kernel.Params(), len(want.Active))
		}
	}
}

// TestCalibratedCLI: train stores a calibration fitted on the training
// data only (the same whatever --test file is given), eval reports it with
// the ECE, --raw and version 1 models give the raw q's (with a note for
// the latter).
func TestCalibratedCLI(t *testing.T) {
	f := newFixture(t)
	var cals []*calib.Calibration
	for i, test := range []string{f.test, f.train} {
		m := filepath.Join(f.dir, fmt.Sprintf("c%d.pgp", i))
		if code, _, e := runCLI(t, append([]string{"train", "--data", f.train, "--model", m, "--test", test}, fast...)...); code != 0 {
			t.Fatalf("train: %s", e)
		}
		mod, err := model.Load(m)
		if err != nil || mod.Calibration == nil || mod.FormatVersion != model.Version {
			t.Fatalf("model: %v, calibration %v", err, mod.Calibration)
		}
		cals = append(cals, mod.Calibration)
	}
	if cals[0].A != cals[1].A || !slices.Equal(cals[0].B, cals[1].B) {
		t.Errorf("the calibration depends on the --test file: %+v %+v", cals[0], cals[1])
	}
	m := filepath.Join(f.dir, "c0.pgp")
	var got, raw passgpfast.Metrics
	_, out, e := runCLI(t, "eval", "--model", m, "--data", f.test, "--json")
	if err := json.Unmarshal([]byte(out), &got); err != nil || !got.Calibrated || !(got.ECE >= 0 && got.ECE < 1) || strings.Contains(e, "note") {
		t.Fatalf("eval: %v %+v %q", err, got, e)
	}
	_, out, _ = runCLI(t, "eval", "--model", m, "--data", f.test, "--json", "--raw")
	if err := json.Unmarshal([]byte(out), &raw); err != nil || raw.Calibrated || raw.Brier == got.Brier {
		t.Fatalf("eval --raw: %v %+v", err, raw)
	}
	code, _, e := runCLI(t, "eval", "--model", "../../model/testdata/multi_v1.pgp", "--data", "../../model/testdata/points.libsvm")
	if code != 0 || !strings.Contains(e, "has no calibration (format version 1)") {
		t.Errorf("version 1 model: code %d, stderr %q", code, e)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "version")
	want := fmt.Sprintf("model format version %d; BLAS %s", model.Version, la.Backend)
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "Gram kernels "+la.SIMD()) {
		t.Errorf("version: code %d, %q, want it to contain %q", code, out, want)
	}
}

// TestTrainClassesSideBySide checks that a multi-class run on two threads,
// which trains the classes side by side with one BLAS thread each, gives
// the classifiers, in class order, of a run on one thread.
func TestTrainClassesSideBySide(t *testing.T) {
	defer la.SetThreads(la.Threads())
	f := newFixture(t)
	args := []string{"--kernel", "se", "--init", "30", "--sub", "3", "--passes", "2", "--quiet"}
	pred := func(threads string, extra ...string) string {
		m := filepath.Join(f.dir, "m"+threads+".pgp")
		a := append([]string{"train", "--data", f.train, "--model", m, "--threads", threads}, args...)
		if code, _, e := runCLI(t, append(a, extra...)...); code != 0 {
			t.Fatalf("train --threads %s: code %d, %s", threads, code, e)
		}
		csv := filepath.Join(f.dir, "p"+threads+".csv")
		if code, _, e := runCLI(t, "predict", "--model", m, "--data", f.test, "--out", csv); code != 0 {
			t.Fatalf("predict: %d %s", code, e)
		}
		b, err := os.ReadFile(csv)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	one, two := pred("1"), pred("2")
	if one != two {
		t.Errorf("--threads 2 (classes side by side) predicts differently from --threads 1")
	}
	if la.BLASThreads() != 2 {
		t.Errorf("BLAS threads %d after training, want 2 restored for what follows", la.BLASThreads())
	}

	// The conditions: more than one thread, no checkpoint, no resume, not
	// full EP or the invariance stage.
	la.SetThreads(2)
	if !(&trainFlags{cfg: passgpfast.DefaultConfig()}).sideBySide() {
		t.Error("two threads, no checkpoint: not side by side")
	}
	for name, tf := range map[string]*trainFlags{
		"checkpoint": {checkpoint: "x", cfg: passgpfast.DefaultConfig()},
		"resume":     {resume: "x", cfg: passgpfast.DefaultConfig()},
		"full":       {cfg: passgpfast.Config{Method: "full"}},
		"augment":    {cfg: passgpfast.Config{Method: "passgp", Augment: "shift4"}},
	} {
		if tf.sideBySide() {
			t.Errorf("%s: side by side", name)
		}
	}
	la.SetThreads(1)
	if (&trainFlags{cfg: passgpfast.DefaultConfig()}).sideBySide() {
		t.Error("one thread: side by side")
	}
}

// TestProgressFraction checks the share of the run done that the ETA is
// computed from: classes trained side by side each count their own
// batches, and the classes before a resumed run's first count as done.
func TestProgressFraction(t *testing.T) {
	half := passgp.Progress{Pass: 0, Passes: 2, Batch: 4, Batches: 5}
	var buf bytes.Buffer
	p := newProgress(&buf, false, 3)
	p.update(0, half)
	p.update(2, half)
	p.update(0, half)
	if !slices.Equal(p.fracs, []float64{0.5, 0, 0.5}) {
		t.Errorf("side by side: fractions %v, want [0.5 0 0.5]", p.fracs)
	}
	r := newProgress(&buf, false, 3)
	r.index = 2 // resumed at the third classifier
	r.update(2, half)
	if !slices.Equal(r.fracs, []float64{1, 1, 0.5}) {
		t.Errorf("resumed: fractions %v, want [1 1 0.5]", r.fracs)
	}
}
