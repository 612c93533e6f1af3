package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

func TestTableMarkdown(t *testing.T) {
	tb := Table{Header: []string{"method", "error (%)"}}
	tb.Row("PASS-GP", "4.51")
	tb.Row("a|b") // short row, pipe escaped
	want := "| method | error (%) |\n|---|---:|\n| PASS-GP | 4.51 |\n| a\\|b |  |\n"
	if got := tb.Markdown(); got != want {
		t.Errorf("Markdown() =\n%s\nwant\n%s", got, want)
	}
}

func TestFormatting(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want string
	}{
		{[]float64{4.5}, "4.50"},
		{[]float64{1, 3}, "2.00 ± 1.41"},
		{[]float64{math.NaN()}, "n/a"},
		{[]float64{2, math.NaN()}, "2.00 ± 0.00"},
		{nil, "n/a"},
	} {
		if got := pm(c.xs, 2); got != c.want {
			t.Errorf("pm(%v) = %q, want %q", c.xs, got, c.want)
		}
	}
}

func TestTargetVerdict(t *testing.T) {
	for _, c := range []struct {
		tg   Target
		want string
	}{
		{Target{Limit: 1.5, Measured: 1.2, Unit: "%"}, "met"},
		{Target{Limit: 1.5, Measured: 1.5, Unit: "%"}, "met"},
		{Target{Limit: 1.0, Measured: 1.25, Unit: "%"}, "**missed** by 0.25 %, 25% over"},
		{Target{Limit: 30, Measured: math.NaN(), Unit: "min"}, "not measured in this run"},
	} {
		if got := c.tg.Verdict(); got != c.want {
			t.Errorf("Verdict(%+v) = %q, want %q", c.tg, got, c.want)
		}
	}
}

// TestLIBSVMRoundTrip writes a dataset in LIBSVM format (zeros omitted,
// shortest exact decimals) and reads it back bit for bit.
func TestLIBSVMRoundTrip(t *testing.T) {
	x := mat.NewDense(3, 4, []float64{
		0, 0.1, -1, 0,
		1.0 / 255, 0, 0, 2e-300,
		0, 0, 0, 0, // all-zero row
	})
	d := &Dataset{X: x, Y: []float64{3, -1, 0.5}}
	var buf bytes.Buffer
	if err := writeLIBSVM(&buf, d); err != nil {
		t.Fatal(err)
	}
	want := "3 2:0.1 3:-1\n-1 1:0.00392156862745098 4:2e-300\n0.5\n"
	if buf.String() != want {
		t.Fatalf("writeLIBSVM:\n%q\nwant\n%q", buf.String(), want)
	}
	path := filepath.Join(t.TempDir(), "d.txt")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := readLIBSVM(path, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(back.X, x) {
		t.Errorf("round trip X = %v, want %v", mat.Formatted(back.X), mat.Formatted(x))
	}
	for i := range d.Y {
		if back.Y[i] != d.Y[i] {
			t.Errorf("label %d = %v, want %v", i, back.Y[i], d.Y[i])
		}
	}
}

func TestReadLIBSVMErrors(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{"1 2:1 1:1\n", "d.txt:1: bad or non-increasing index"},
		{"1 1:1\nx 1:1\n", "d.txt:2: bad label"},
		{"1 1:z\n", "d.txt:1: bad value"},
		{"1 9:1\n", "feature index 9 beyond 4"},
		{"", "no examples"},
	} {
		path := filepath.Join(t.TempDir(), "d.txt")
		os.WriteFile(path, []byte(c.in), 0o644)
		_, err := readLIBSVM(path, 4)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("readLIBSVM(%q) error %v, want one containing %q", c.in, err, c.msg)
		}
	}
}

func TestLogDensity(t *testing.T) {
	_, d := logDensity([]float64{0, 0.01, 0.5, 1, math.NaN()}, 10)
	sum := 0.0
	for _, v := range d {
		sum += v / 10
	}
	if math.Abs(sum-1) > 1e-12 || d[0] != 5 || d[5] != 2.5 || d[9] != 2.5 {
		t.Errorf("density %v (integral %v)", d, sum)
	}
}

// TestDocIncremental checks that a section written by one run is kept when
// another run rewrites a different section, and that incomplete sections
// are labelled.
func TestDocIncremental(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "results")
	mdPath := out + ".md"
	d, err := OpenDoc(mdPath, out)
	if err != nil {
		t.Fatal(err)
	}
	d.Machine = "test machine"
	if err := d.Put(&Section{Key: "mnist", Title: "MNIST", Markdown: "mnist body", Mode: "quick", Complete: true, Machine: "test machine",
		Targets: []Target{{Name: "MNIST error", Goal: "<= 1.5 %", Limit: 1.5, Measured: 1.7, Unit: "%"}}}); err != nil {
		t.Fatal(err)
	}
	d2, err := OpenDoc(mdPath, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := d2.Put(&Section{Key: "usps", Title: "USPS", Markdown: "usps body", Mode: "full"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(mdPath)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	iu, im := strings.Index(s, "## USPS"), strings.Index(s, "## MNIST")
	if iu < 0 || im < 0 || iu > im {
		t.Errorf("sections missing or out of order:\n%s", s)
	}
	for _, want := range []string{"mnist body", "usps body", "**incomplete", "**missed** by 0.2 %", "test machine"} {
		if !strings.Contains(s, want) {
			t.Errorf("results.md lacks %q:\n%s", want, s)
		}
	}
}

func TestParseFlags(t *testing.T) {
	c, err := parseFlags([]string{"--out", "docs/results/", "--only", "usps,svm", "--quick"})
	if err != nil {
		t.Fatal(err)
	}
	if c.MD != "docs/results.md" || !c.Quick || c.Reps != 1 || !c.wantExp("usps") || c.wantExp("mnist") || !c.wantGP() {
		t.Errorf("config %+v", c)
	}
	c, _ = parseFlags([]string{"--only", "svm"})
	if c.wantGP() || !c.wantExp("mnist") {
		t.Errorf("--only svm: config %+v", c)
	}
	for _, tc := range []struct {
		args          []string
		reps, figReps int
	}{
		{nil, 1, 1},
		{[]string{"--reps", "10"}, 10, 10},
		{[]string{"--reps", "10", "--fig-reps", "2"}, 10, 2},
		{[]string{"--reps", "3", "--fig-reps", "5"}, 3, 3},
		{[]string{"--fig-reps", "4"}, 1, 1},
	} {
		c, err := parseFlags(tc.args)
		if err != nil || c.Reps != tc.reps || c.FigReps != tc.figReps {
			t.Errorf("%q: reps %d fig-reps %d (%v), want %d %d", tc.args, c.Reps, c.FigReps, err, tc.reps, tc.figReps)
		}
		env := &Env{Cfg: c}
		if n := len(env.figSeeds()); n != tc.figReps || env.figSeeds()[0] != c.Seed {
			t.Errorf("%q: figSeeds %v", tc.args, env.figSeeds())
		}
	}
	if c, _ := parseFlags([]string{"--mnist-scale", "6"}); c.MNISTScale != 6 {
		t.Errorf("--mnist-scale 6: %v", c.MNISTScale)
	}
	if c, _ := parseFlags(nil); c.MNISTScale != mnistScale {
		t.Errorf("default MNIST scale %v, want %v", c.MNISTScale, mnistScale)
	}
	if _, err := parseFlags([]string{"--only", "cifar"}); err == nil {
		t.Error("unknown experiment accepted")
	}
}

func TestParseDeadline(t *testing.T) {
	now := time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)
	got, err := parseDeadline("05:20", now)
	if err != nil || !got.Equal(time.Date(2026, 11, 21, 5, 20, 0, 0, time.UTC)) {
		t.Errorf("parseDeadline(05:20) = %v, %v", got, err)
	}
	got, err = parseDeadline("2026-11-21T05:20:00Z", now)
	if err != nil || got.Hour() != 5 {
		t.Errorf("parseDeadline(RFC 3339) = %v, %v", got, err)
	}
	if _, err := parseDeadline("soon", now); err == nil {
		t.Error("parseDeadline accepted garbage")
	}
}

func TestMajorityErr(t *testing.T) {
	if got := majorityErr([]float64{1, -1, -1, -1}); got != 25 {
		t.Errorf("majorityErr = %v, want 25", got)
	}
}

func TestBinaryErr(t *testing.T) {
	// q(+1|x) thresholded at 1/2; exactly 1/2 predicts -1.
	if got := binaryErr([]float64{0.9, 0.5, 0.2, 0.7}, []float64{1, 1, -1, -1}); got != 50 {
		t.Errorf("binaryErr = %v, want 50", got)
	}
}

func TestOldSVMPart(t *testing.T) {
	md := "### Multi\n\ntext\n\n### LIBSVM side by side (mnist)\n\nRBF SVM.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n_MNIST fPASS-GP: not run._\n\nPeak resident memory 1 GiB."
	got := oldSVMPart(&Section{Markdown: md})
	want := "### LIBSVM side by side (mnist)\n\nRBF SVM.\n\n| a | b |\n|---|---|\n| 1 | 2 |"
	if got != want {
		t.Errorf("oldSVMPart = %q, want %q", got, want)
	}
	if got := oldSVMPart(&Section{Markdown: md, Parts: map[string]string{"svm": "stored"}}); got != "stored" {
		t.Errorf("stored part: got %q", got)
	}
	if got := oldSVMPart(&Section{Markdown: "### Other\n"}); got != "" {
		t.Errorf("no LIBSVM block: got %q", got)
	}
}

// TestNoSVMKeepsPart checks that a run with --no-svm carries the LIBSVM
// part of the earlier section of the same mode, labelled, and that a run
// without --no-svm does not.
func TestNoSVMKeepsPart(t *testing.T) {
	for _, noSVM := range []bool{true, false} {
		dir := t.TempDir()
		out := filepath.Join(dir, "results")
		d, err := OpenDoc(out+".md", out)
		if err != nil {
			t.Fatal(err)
		}
		old := "### Multi\n\nold gp\n\n### LIBSVM side by side (mnist)\n\nold svm table"
		if err := d.Put(&Section{Key: "mnist", Title: "MNIST", Markdown: old, Mode: "full", Command: "old command"}); err != nil {
			t.Fatal(err)
		}
		env := &Env{Cfg: &Config{NoSVM: noSVM}, Doc: d}
		b := newBuilder(env, "mnist", "MNIST", "new intro")
		b.declare("gp", "svm", "mem")
		b.set("gp", "new gp")
		md := d.Sections["mnist"].Markdown
		kept := strings.Contains(md, "old svm table") && strings.Contains(md, "kept from the earlier run") && strings.Contains(md, "old command")
		if kept != noSVM {
			t.Errorf("NoSVM=%v: LIBSVM part kept = %v:\n%s", noSVM, kept, md)
		}
		if strings.Contains(md, "old gp") {
			t.Errorf("NoSVM=%v: the earlier GP part was kept:\n%s", noSVM, md)
		}
		if !noSVM {
			continue
		}
		// A second --no-svm run carries the part again with the note that
		// names the run that measured it, not the run that carried it.
		d.Sections["mnist"].Command = "carrying command"
		b = newBuilder(env, "mnist", "MNIST", "newer intro")
		b.declare("gp", "svm", "mem")
		b.set("gp", "newer gp")
		md = d.Sections["mnist"].Markdown
		if n := strings.Count(md, "kept from the earlier run"); n != 1 || !strings.Contains(md, "old command") || strings.Contains(md, "carrying command") {
			t.Errorf("carried twice: %d notes, want one naming the old command:\n%s", n, md)
		}
	}
}

// TestBeyondSection: results.md ends with bench/scaling's table and plot
// when <out>/scaling/scaling.md exists, and has no such section otherwise.
func TestBeyondSection(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "results")
	d, err := OpenDoc(filepath.Join(root, "results.md"), out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(d.Render(), "Beyond the paper") {
		t.Fatal("a beyond-the-paper section without bench/scaling's output")
	}
	os.MkdirAll(filepath.Join(out, "scaling"), 0o755)
	os.WriteFile(filepath.Join(out, "scaling", "scaling.md"), []byte("| tool | N |\n|---|---|\n| libsvm | 10 |\n"), 0o644)
	os.WriteFile(filepath.Join(out, "scaling", "other.md"), []byte("### Other data\n"), 0o644)
	md := d.Render()
	for _, want := range []string{"## Beyond the paper", "| libsvm | 10 |", "](results/scaling/scaling.png)", "### Other data"} {
		if !strings.Contains(md, want) {
			t.Errorf("results.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "### Public data sets") {
		t.Fatal("a public data section without bench/mlbench's output")
	}
	// bench/mlbench's table, with the notes before and after it.
	os.MkdirAll(filepath.Join(out, "mlbench"), 0o755)
	os.WriteFile(filepath.Join(out, "mlbench", "results.md"), []byte("| data | x |\n|---|---|\n| Sonar | 1 |\n"), 0o644)
	os.WriteFile(filepath.Join(out, "mlbench", "notes.md"), []byte("How it was run.\n"), 0o644)
	os.WriteFile(filepath.Join(out, "mlbench", "after.md"), []byte("What it shows.\n"), 0o644)
	md = d.Render()
	i, j, k, l := strings.Index(md, "### Public data sets"), strings.Index(md, "How it was run."), strings.Index(md, "| Sonar | 1 |"), strings.Index(md, "What it shows.")
	if !(strings.Index(md, "### Other data") < i && i < j && j < k && k < l) {
		t.Errorf("public data section missing or out of order (%d %d %d %d):\n%s", i, j, k, l, md)
	}
}

// TestOldRow: a method's row is carried over with its table's header.
func TestOldRow(t *testing.T) {
	b := &builder{old: &Section{Parts: map[string]string{"gp-main": "### T\n\ntext\n\n| method | err |\n|---|---:|\n| PASS-GP | 1.38 |\n| fPASS-GP | 1.40 |\n\nafter"}}}
	if got, want := b.oldRow("gp-main", "fPASS-GP"), "| method | err |\n|---|---:|\n| fPASS-GP | 1.40 |\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := b.oldRow("gp-main", "IVM"); got != "" {
		t.Errorf("missing row: got %q", got)
	}
	if got := (&builder{}).oldRow("gp-main", "fPASS-GP"); got != "" {
		t.Errorf("no earlier section: got %q", got)
	}
}
