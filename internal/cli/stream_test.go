package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/synth"
)

// writeStreamFiles writes ds as a LIBSVM file without its last feature
// (zero in every row, so that the file is narrower than the model), a CSV
// file (label first) and a binary data file, and returns their paths.
func writeStreamFiles(t *testing.T, dir, name string, ds *data.Dataset) []string {
	t.Helper()
	var lib, csv strings.Builder
	for i := 0; i < ds.N; i++ {
		row := ds.Row(i)
		row[ds.D-1] = 0
		fmt.Fprintf(&lib, "%v", ds.Y[i])
		fmt.Fprintf(&csv, "%v", ds.Y[i])
		for j, v := range row {
			if j < ds.D-1 {
				fmt.Fprintf(&lib, " %d:%v", j+1, v)
			}
			fmt.Fprintf(&csv, ",%v", v)
		}
		lib.WriteByte('\n')
		csv.WriteByte('\n')
	}
	paths := []string{filepath.Join(dir, name+".libsvm"), filepath.Join(dir, name+".csv"), filepath.Join(dir, name+".pgd")}
	for i, s := range []string{lib.String(), csv.String()} {
		if err := os.WriteFile(paths[i], []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, e := runCLI(t, "convert", "--data", paths[1], "--out", paths[2]); code != 0 {
		t.Fatalf("convert: %s", e)
	}
	return paths
}

// referenceOutputs computes what predict, eval and eval --json print for
// the model file m on the data file path from the whole data set in
// memory (data.Load, PredictDataset, Evaluate).
func referenceOutputs(t *testing.T, m, path string, raw bool) (csv, report, js string) {
	t.Helper()
	clf, err := passgpfast.LoadFile(m, model.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if raw {
		clf.Model().Calibration = nil
	}
	ds, err := data.Load(path, data.Options{MinDim: clf.D()})
	if err != nil {
		t.Fatal(err)
	}
	ds.Source = path
	ctx := context.Background()
	p, err := clf.PredictDataset(ctx, ds)
	if err != nil {
		t.Fatal(err)
	}
	var c, r bytes.Buffer
	if err := writeCSV(&c, clf.Outputs(), p.Prob, p.Decision); err != nil {
		t.Fatal(err)
	}
	met, _, err := clf.Evaluate(ctx, ds)
	if err != nil {
		t.Fatal(err)
	}
	met.Report(&r)
	b, err := json.MarshalIndent(met, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return c.String(), r.String(), string(b) + "\n"
}

// TestPredictEvalStream: predict and eval read their data a batch at a
// time and print, byte for byte, what predicting and scoring the whole
// data set in memory gives, for LIBSVM (narrower than the model), CSV and
// binary files, multi-class and binary models, calibrated and raw, with
// the default --max-mem (one batch) and a small one (batches of
// passgpfast.PredictChunk rows, the least: 2 or 3 batches here). One code
// path at batch sizes aligned to the model's blocks: equal bit for bit
// (batches of 1 to 3 rows differ in the last bits, as the library's test
// shows).
func TestPredictEvalStream(t *testing.T) {
	f := newFixture(t)
	n := 2*passgpfast.PredictChunk + 300
	big := synth.Bands(21, n, 3, 3, synth.BandsNoise)
	var idx []int
	for i, y := range big.Y {
		if y != 2 {
			idx = append(idx, i)
		}
	}
	bigBin := big.Subset(idx)
	for i := range bigBin.Y {
		bigBin.Y[i] = 2*bigBin.Y[i] - 1
	}
	if bigBin.N <= passgpfast.PredictChunk {
		t.Fatalf("binary test set of %d rows: want more than one batch", bigBin.N)
	}
	for _, c := range []struct {
		name, train string
		test        *data.Dataset
	}{{"multi", f.train, big}, {"binary", f.bin, bigBin}} {
		m := filepath.Join(f.dir, c.name+".pgp")
		if code, _, e := runCLI(t, append([]string{"train", "--data", c.train, "--model", m, "--seed", "2", "--threads", "1"}, fast...)...); code != 0 {
			t.Fatalf("train: %s", e)
		}
		for _, path := range writeStreamFiles(t, f.dir, c.name, c.test) {
			for _, raw := range []bool{false, true} {
				wantCSV, wantReport, wantJSON := referenceOutputs(t, m, path, raw)
				for _, mem := range []string{"16", "3e-4"} {
					args := []string{"--model", m, "--data", path, "--max-mem", mem}
					if raw {
						args = append(args, "--raw")
					}
					what := fmt.Sprintf("%s %s raw=%v --max-mem %s", c.name, filepath.Base(path), raw, mem)
					for _, run := range []struct {
						cmd   string
						extra []string
						want  string
					}{{"predict", nil, wantCSV}, {"eval", nil, wantReport}, {"eval", []string{"--json"}, wantJSON}} {
						code, out, e := runCLI(t, append(append([]string{run.cmd}, args...), run.extra...)...)
						if code != 0 {
							t.Fatalf("%s %s: exit %d: %s", run.cmd, what, code, e)
						}
						if out != run.want {
							t.Errorf("%s %v %s: output differs from the in-memory one:\n%.600s\nwant\n%.600s", run.cmd, run.extra, what, out, run.want)
						}
					}
				}
			}
		}
	}
}

// TestPredictEvalCancel: a cancelled context stops predict and eval with
// an error, and predict --out then leaves no file behind.
func TestPredictEvalCancel(t *testing.T) {
	f := newFixture(t)
	m := filepath.Join(f.dir, "m.pgp")
	if code, _, e := runCLI(t, append([]string{"train", "--data", f.train, "--model", m, "--threads", "1"}, fast...)...); code != 0 {
		t.Fatalf("train: %s", e)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(f.dir, "p.csv")
	for _, args := range [][]string{{"predict", "--out", out}, {"eval"}} {
		code, _, e := runCLICtx(t, ctx, append(args, "--model", m, "--data", f.test)...)
		if code == 0 || !strings.Contains(e, "context canceled") {
			t.Errorf("%s, cancelled: exit %d, stderr %q", args[0], code, e)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("cancelled predict --out left %s (%v)", out, err)
	}
}

// TestBatchRows: --max-mem bounds a batch at whole blocks of
// passgpfast.PredictChunk rows, at least one, at most maxBatchChunks and no
// more than the data's rows need.
func TestBatchRows(t *testing.T) {
	c := passgpfast.PredictChunk
	lib := filepath.Join(t.TempDir(), "x.libsvm")
	if err := os.WriteFile(lib, []byte("1 1:0.5 3:1\n-1 2:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file, err := data.OpenLIBSVM(context.Background(), lib, data.LIBSVMOptions{Dim: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	mem := func(n int) data.Source {
		return data.NewMemSource(&data.Dataset{N: n, D: 3, X: make([]float64, 3*n)})
	}
	row := 8 * (3 + 7*2 + 3) // bytes of a row, 3 features and 2 classifiers
	for _, tc := range []struct {
		gib  float64
		src  data.Source
		want int
	}{
		{16, file, maxBatchChunks * c}, // length unknown
		{16, mem(10), c},
		{16, mem(2*c + 1), 3 * c},
		{float64(2*c*row+row) / (1 << 30), file, 2 * c},
		{float64(c*row-1) / (1 << 30), file, c},
		{1e-9, mem(5 * c), c},
	} {
		df := dataFlags{maxMemGiB: tc.gib}
		if got := df.batchRows(tc.src, 2); got != tc.want {
			t.Errorf("--max-mem %v, %d rows: batch of %d rows, want %d", tc.gib, tc.src.Len(), got, tc.want)
		}
	}
}
