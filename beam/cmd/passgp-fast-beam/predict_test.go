package main

import (
	"bytes"
	"context"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/beam/internal/beamtest"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/synth"
)

func TestMain(m *testing.M) { beamtest.Main(m, "passgp-fast-beam-test-") }

// files writes a binary model (trained on 200 generated points, 3
// features) and 5000 generated rows to a binary data file: two shards of
// 4096 rows.
func files(t *testing.T) (modelPath, dataPath string) {
	t.Helper()
	ctx := context.Background()
	task := synth.Task{Classes: 2, D: 3}
	train, err := synth.Dataset(task, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	clf, err := passgpfast.Fit(ctx, train.Dense(), train.Y, passgpfast.WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	modelPath, dataPath = filepath.Join(dir, "m.model"), filepath.Join(dir, "x.pgd")
	if err := clf.SaveFile(modelPath); err != nil {
		t.Fatal(err)
	}
	test, err := synth.Dataset(task, 5000, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := data.WriteBinary(ctx, dataPath, data.NewMemSource(test), data.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return modelPath, dataPath
}

// runPredict runs predict with args on Prism in this process.
func runPredict(args ...string) (code int, stdout, stderr string) {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	var out, errb bytes.Buffer
	fs.SetOutput(&errb)
	o := registerPredict(fs, registerShared(fs))
	if err := fs.Parse(args); err != nil {
		return exitUsage, "", errb.String()
	}
	code = predict(context.Background(), o, fs.Args(), nil, &out, &errb)
	return code, out.String(), errb.String()
}

// wantCSV is passgp-fast predict's CSV of clf's predictions of the data
// file, written here from its documented format.
func wantCSV(t *testing.T, clf *passgpfast.Classifier, dataPath string) string {
	t.Helper()
	ds, err := data.ReadBinary(context.Background(), dataPath)
	if err != nil {
		t.Fatal(err)
	}
	p, err := clf.PredictDataset(context.Background(), ds)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("predicted,p_" + strings.Join(clf.Outputs(), ",p_") + "\n")
	for i, d := range p.Decision {
		b.WriteString(clf.Outputs()[d])
		for _, v := range p.Prob.RawRowView(i) {
			b.WriteString("," + strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// servingTol bounds the difference between the serving view's
// probabilities and the default view's (the root package's serving
// tests' bound).
const servingTol = 1e-9

// TestPredict: predict's CSV, to a file or standard output, calibrated
// or raw, is byte for byte the CSV of the serving view's in-process
// predictions, and within servingTol of the default view's (what
// passgp-fast predict writes).
func TestPredict(t *testing.T) {
	modelPath, dataPath := files(t)
	for _, tc := range []struct {
		name   string
		raw    bool
		toFile bool
	}{
		{"calibrated, to a file", false, true},
		{"raw, to standard output", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"--model", modelPath, "--data", dataPath, "--shard-rows", "4096", "--workers", "2"}
			out := filepath.Join(t.TempDir(), "p.csv")
			if tc.toFile {
				args = append(args, "--out", out)
			}
			if tc.raw {
				args = append(args, "--raw")
			}
			code, stdout, stderr := runPredict(args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := stdout
			if tc.toFile {
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				got = string(b)
			}
			clf, err := passgpfast.LoadFile(modelPath, model.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.raw {
				clf.Model().Calibration = nil
			}
			if want := wantCSV(t, clf.Serving(), dataPath); got != want {
				t.Errorf("CSV differs from the serving view's in-process one")
			}
			closeCSV(t, got, wantCSV(t, clf, dataPath))
		})
	}
}

// closeCSV checks that two CSVs of predictions have the same header and
// rows, probabilities within servingTol, and the same decisions where
// the two probabilities differ by more than that.
func closeCSV(t *testing.T, got, want string) {
	t.Helper()
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(g) != len(w) || g[0] != w[0] {
		t.Fatalf("%d lines, header %q; want %d, %q", len(g), g[0], len(w), w[0])
	}
	for i := 1; i < len(g)-1; i++ {
		gf, wf := strings.Split(g[i], ","), strings.Split(w[i], ",")
		var p []float64
		for j := 1; j < len(gf); j++ {
			a, _ := strconv.ParseFloat(gf[j], 64)
			b, _ := strconv.ParseFloat(wf[j], 64)
			if math.Abs(a-b) > servingTol {
				t.Fatalf("line %d column %d: %v, default view %v", i+1, j+1, a, b)
			}
			p = append(p, a)
		}
		if gf[0] != wf[0] && math.Abs(p[0]-p[1]) > servingTol {
			t.Fatalf("line %d: predicted %s, default view %s", i+1, gf[0], wf[0])
		}
	}
}

// TestPredictUsage: a bad command line exits with the usage code and
// says what is wrong; a failed run exits with the error code, naming
// the file, and leaves no output file.
func TestPredictUsage(t *testing.T) {
	modelPath, dataPath := files(t)
	out := filepath.Join(t.TempDir(), "p.csv")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--data", dataPath}, exitUsage, "--model FILE is required"},
		{[]string{"--model", modelPath}, exitUsage, "--data FILE is required"},
		{[]string{"--model", modelPath, "--data", dataPath, "--shard-rows", "100"}, exitUsage, "multiple of 4096"},
		{[]string{"--model", modelPath, "--data", dataPath, "extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"--model", modelPath, "--data", dataPath, "--max-mem", "0"}, exitUsage, "--max-mem must be positive"},
		{[]string{"--model", dataPath, "--data", dataPath, "--out", out}, exitError, dataPath},
	} {
		code, _, stderr := runPredict(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s (%v)", out, err)
	}
}

// TestRunCommands: the command line's first word picks the command; an
// unknown one is a usage error. (run registers its flags on the
// process's flag set, so it runs once per test binary.)
func TestRunCommands(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"frobnicate"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), `unknown command "frobnicate"`) {
		t.Errorf("exit %d, %q; want %d and an unknown command", code, stderr.String(), exitUsage)
	}
}
