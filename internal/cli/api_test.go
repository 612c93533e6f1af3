package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/la"
)

// TestAPIMatchesCLI: passgpfast.FitDataset with no options but the seed
// and thread count predicts, byte for byte, the CSV that `train` with its
// defaults and `predict` write: the command calls the library, one code
// path both ways. A multi-class and a binary task, train's defaults
// (scaling, kernel, budget, calibration) throughout.
func TestAPIMatchesCLI(t *testing.T) {
	defer la.SetThreads(la.Threads())
	f := newFixture(t)
	for _, c := range []struct{ name, train, test string }{{"multi", f.train, f.test}, {"binary", f.bin, f.binTest}} {
		t.Run(c.name, func(t *testing.T) {
			m, csv := filepath.Join(f.dir, c.name+".pgp"), filepath.Join(f.dir, c.name+".csv")
			if code, _, e := runCLI(t, "train", "--data", c.train, "--model", m, "--seed", "3", "--threads", "1", "--quiet"); code != 0 {
				t.Fatalf("train: %s", e)
			}
			if code, _, e := runCLI(t, "predict", "--model", m, "--data", c.test, "--out", csv); code != 0 {
				t.Fatalf("predict: %s", e)
			}
			want, err := os.ReadFile(csv)
			if err != nil {
				t.Fatal(err)
			}
			ds, err := data.Load(c.train, data.Options{})
			if err != nil {
				t.Fatal(err)
			}
			clf, err := passgpfast.FitDataset(context.Background(), ds, passgpfast.WithSeed(3), passgpfast.WithThreads(1))
			if err != nil {
				t.Fatal(err)
			}
			te, err := data.Load(c.test, data.Options{MinDim: clf.D()})
			if err != nil {
				t.Fatal(err)
			}
			p, err := clf.PredictDataset(context.Background(), te)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := writeCSV(&got, clf.Outputs(), p.Prob, p.Decision); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("the library's predictions differ from train + predict's:\n%s\nwant\n%s", got.Bytes(), want)
			}
		})
	}
}
