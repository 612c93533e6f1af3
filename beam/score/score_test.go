package score

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/beam/internal/beamtest"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/synth"
)

func TestMain(m *testing.M) { beamtest.Main(m, "score-test-") }

// fix is the tests' model and data files: a three-class one-vs-rest
// model trained on 300 generated points (4 features) and 9000 generated
// test rows, so that shards of Align rows make three shards, the last
// one short.
var fix struct {
	once             sync.Once
	dir, model, data string
	err              error
}

const fixRows = 9000

func fixture(t *testing.T) (modelPath, dataPath string) {
	t.Helper()
	fix.once.Do(func() {
		ctx := context.Background()
		task := synth.Task{Classes: 3, D: 4}
		train, err := synth.Dataset(task, 300, 1)
		if err != nil {
			fix.err = err
			return
		}
		clf, err := passgpfast.Fit(ctx, train.Dense(), train.Y, passgpfast.WithThreads(1))
		if err != nil {
			fix.err = err
			return
		}
		if fix.dir, fix.err = os.MkdirTemp("", "fixture-"); fix.err != nil {
			return
		}
		fix.model, fix.data = filepath.Join(fix.dir, "m.model"), filepath.Join(fix.dir, "x.pgd")
		if fix.err = clf.SaveFile(fix.model); fix.err != nil {
			return
		}
		test, err := synth.Dataset(task, fixRows, 2)
		if err != nil {
			fix.err = err
			return
		}
		fix.err = data.WriteBinary(ctx, fix.data, data.NewMemSource(test), data.WriteOptions{})
	})
	if fix.err != nil {
		t.Fatal(fix.err)
	}
	return fix.model, fix.data
}

// inProcess returns the in-process predictions of the data file: the
// serving view's (what the workers compute) and the default view's.
func inProcess(t *testing.T, modelPath, dataPath string, raw, latent bool) (serving, def *Rows) {
	t.Helper()
	ctx := context.Background()
	ds, err := data.ReadBinary(ctx, dataPath)
	if err != nil {
		t.Fatal(err)
	}
	clf, err := passgpfast.LoadFile(modelPath, model.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if raw {
		clf.Model().Calibration = nil
	}
	rows := func(c *passgpfast.Classifier) *Rows {
		p, err := c.PredictDataset(ctx, ds)
		if err != nil {
			t.Fatal(err)
		}
		r := &Rows{Prob: p.Prob, Decision: p.Decision}
		if latent {
			k := len(c.Model().Binaries)
			r.Mean, r.Var = mat.NewDense(ds.N, k, nil), mat.NewDense(ds.N, k, nil)
			c.LatentMeanVarTo(r.Mean, r.Var, ds.Dense())
		}
		return r
	}
	return rows(clf.Serving()), rows(clf)
}

// sameBits reports whether a and b hold the same float64 bits.
func sameBits(a, b *mat.Dense) bool {
	ra, ca := a.Dims()
	rb, cb := b.Dims()
	if ra != rb || ca != cb {
		return false
	}
	for i := range ra {
		for j := range ca {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// servingTol bounds the difference between the serving view's and the
// default view's outputs (the root package's serving tests' bound: the
// two sum in different orders, and the variance's triangular solve
// carries an error of order |A|·ε·κ(B)).
const servingTol = 1e-9

// TestRunMatchesInProcess: on Prism, with the rows in several shards
// scored by two or three groups side by side, the merged results are bit
// for bit the serving view's in-process ones on the whole file (the same
// computation on the same chunks), and within servingTol of the default
// view's.
func TestRunMatchesInProcess(t *testing.T) {
	modelPath, dataPath := fixture(t)
	for _, tc := range []struct {
		name              string
		shardRows, groups int
		raw, latent       bool
		wantShards        int
	}{
		{"align-rows, 2 groups, latent", Align, 2, false, true, 3},
		{"2·align rows, 2 groups, raw", 2 * Align, 2, true, false, 2},
		{"default rows, 3 groups", 0, 3, false, false, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			res, err := Run(context.Background(), Options{
				Model: modelPath, Data: dataPath, Dir: dir,
				ShardRows: tc.shardRows, Workers: tc.groups, Latent: tc.latent,
				ModelOptions: ModelOptions{Raw: tc.raw},
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Shards != tc.wantShards {
				t.Errorf("%d shards, want %d", res.Shards, tc.wantShards)
			}
			serving, def := inProcess(t, modelPath, dataPath, tc.raw, tc.latent)
			if !sameBits(res.Prob, serving.Prob) {
				t.Error("probabilities differ from the serving view's in-process ones")
			}
			for i, d := range res.Decision {
				if d != serving.Decision[i] {
					t.Fatalf("row %d: decision %d, in-process %d", i+1, d, serving.Decision[i])
				}
			}
			if !mat.EqualApprox(res.Prob, def.Prob, servingTol) {
				t.Errorf("probabilities differ from the default view's by more than %g", servingTol)
			}
			if tc.latent && (!sameBits(res.Mean, serving.Mean) || !sameBits(res.Var, serving.Var)) {
				t.Error("latent means or variances differ from the serving view's in-process ones")
			}
			if tc.latent && (!mat.EqualApprox(res.Mean, def.Mean, servingTol) || !mat.EqualApprox(res.Var, def.Var, servingTol)) {
				t.Errorf("latent means or variances differ from the default view's by more than %g", servingTol)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("%d files left in the shard directory", len(left))
			}
		})
	}
}
