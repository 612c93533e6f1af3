package passgpfast

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
	"github.com/passgp-fast/passgp-fast/synth"
)

// streamCase is a classifier and labelled test data to stream.
type streamCase struct {
	name string
	clf  *Classifier
	test *data.Dataset
}

// streamCases fits binary, positive-vs-rest and one-vs-rest classifiers
// (one on data far from a unit scale, so that it has a scaling) and draws
// n test points of each task, a tenth of them moved far from the training
// data so that the calibration's gate moves some latents.
func streamCases(t *testing.T, n int) []streamCase {
	t.Helper()
	specs := []struct {
		name    string
		classes int
		scale   float64
		opts    []Option
	}{
		{"binary", 2, 1, nil},
		{"positive-vs-rest", 3, 1, []Option{WithPositive(1)}},
		{"one-vs-rest scaled", 3, 300, nil},
	}
	var cases []streamCase
	for i, s := range specs {
		task := synth.Task{Classes: s.classes, D: 3}
		train, err := synth.Dataset(task, 200, uint64(10+i))
		if err != nil {
			t.Fatal(err)
		}
		test, err := synth.Dataset(task, n, uint64(20+i))
		if err != nil {
			t.Fatal(err)
		}
		for _, ds := range []*data.Dataset{train, test} {
			for j := range ds.X {
				ds.X[j] *= s.scale
			}
		}
		for j := 0; j < n; j += 10 {
			for f := range test.D {
				test.X[j*test.D+f] *= 6
			}
		}
		test.Source = "test-" + s.name
		opts := append([]Option{WithSeed(5), WithThreads(1), WithSchedule(20, 5, 2)}, s.opts...)
		clf, err := Fit(context.Background(), train.Dense(), train.Y, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if clf.Model().Calibration == nil {
			t.Fatalf("%s: no calibration", s.name)
		}
		cases = append(cases, streamCase{s.name, clf, test})
	}
	return cases
}

// streamAll collects PredictSource's predictions of every row.
func streamAll(t *testing.T, c *Classifier, src data.Source, rows int) *Predictions {
	t.Helper()
	n, k, nb := src.Len(), len(c.Outputs()), len(c.Model().Binaries)
	all := &Predictions{Prob: mat.NewDense(n, k, nil), Z: mat.NewDense(n, nb, nil), CZ: mat.NewDense(n, nb, nil), CRho: mat.NewDense(n, nb, nil), Decision: make([]int, n)}
	next := 0
	err := c.PredictSource(context.Background(), src, rows, func(b *data.Batch, p *Predictions) error {
		if b.Start != next || b.Len() > rows {
			t.Fatalf("batch of %d rows at %d, want at most %d at %d", b.Len(), b.Start, rows, next)
		}
		lo, hi := b.Start, b.Start+b.Len()
		all.Prob.Slice(lo, hi, 0, k).(*mat.Dense).Copy(p.Prob)
		all.Z.Slice(lo, hi, 0, nb).(*mat.Dense).Copy(p.Z)
		all.CZ.Slice(lo, hi, 0, nb).(*mat.Dense).Copy(p.CZ)
		all.CRho.Slice(lo, hi, 0, nb).(*mat.Dense).Copy(p.CRho)
		copy(all.Decision[lo:hi], p.Decision)
		next = hi
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if next != n {
		t.Fatalf("streamed %d rows of %d", next, n)
	}
	return all
}

// TestPredictSourceMatchesPredict: streaming a data set, from memory or a
// binary data file, in batches of multiples of PredictChunk gives
// PredictDataset's predictions and Evaluate's metrics bit for bit (one
// path: the model sees the same blocks of rows), and the metrics are those
// of the whole-data functions (referenceMetrics) exactly, calibrated and
// raw. Batches of 1, 3 and 1000 rows agree within 1e-9 (BLAS rounding
// depends on the block's shape; the latents differ by about 1e-13).
func TestPredictSourceMatchesPredict(t *testing.T) {
	ctx := context.Background()
	n := 2*PredictChunk + 700
	dir := t.TempDir()
	for _, tc := range streamCases(t, n) {
		bin := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".pgd")
		if err := data.WriteBinary(ctx, bin, data.NewMemSource(tc.test), data.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, raw := range []bool{false, true} {
			if raw {
				tc.clf.Model().Calibration = nil
			}
			want, err := tc.clf.PredictDataset(ctx, tc.test)
			if err != nil {
				t.Fatal(err)
			}
			wantMet, _, err := tc.clf.Evaluate(ctx, tc.test)
			if err != nil {
				t.Fatal(err)
			}
			if !raw && mat.Equal(want.CZ, want.Z) {
				t.Logf("%s: the gate moves no latent", tc.name)
			}
			truth, _ := tc.clf.Truth(tc.test.Y, "")
			if ref := referenceMetrics(tc.clf.Model(), want.Prob, want, truth); !reflect.DeepEqual(*wantMet, ref) {
				t.Errorf("%s raw=%v: Evaluate %+v, whole-data functions %+v", tc.name, raw, *wantMet, ref)
			}
			src, err := data.OpenBinary(ctx, bin, data.BinaryOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			for _, s := range []data.Source{data.NewMemSource(tc.test), src} {
				for _, rows := range []int{PredictChunk, 2 * PredictChunk, 4 * PredictChunk} {
					got := streamAll(t, tc.clf, s, rows)
					if !mat.Equal(got.Prob, want.Prob) || !mat.Equal(got.Z, want.Z) || !mat.Equal(got.CZ, want.CZ) || !mat.Equal(got.CRho, want.CRho) || !reflect.DeepEqual(got.Decision, want.Decision) {
						t.Errorf("%s raw=%v %T, %d rows a batch: predictions differ from PredictDataset's", tc.name, raw, s, rows)
					}
					met, err := tc.clf.EvaluateSource(ctx, s, rows)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(met, wantMet) {
						t.Errorf("%s raw=%v %T, %d rows a batch: metrics %+v, Evaluate's %+v", tc.name, raw, s, rows, *met, *wantMet)
					}
				}
			}
			// Small batches, on the first 500 rows.
			head := &data.Dataset{N: 500, D: tc.test.D, X: tc.test.X[:500*tc.test.D], Y: tc.test.Y[:500], Source: tc.test.Source}
			whole, err := tc.clf.PredictDataset(ctx, head)
			if err != nil {
				t.Fatal(err)
			}
			for _, rows := range []int{1, 3, 1000} {
				got := streamAll(t, tc.clf, data.NewMemSource(head), rows)
				if !mat.EqualApprox(got.Prob, whole.Prob, 1e-9) {
					t.Errorf("%s raw=%v, %d rows a batch: probabilities differ by more than 1e-9", tc.name, raw, rows)
				}
			}
		}
	}
}

// TestPredictSourceStops: a context cancelled during a batch stops the pass
// before the next batch is predicted, an error of f ends it, and errors
// of the data name the source and the example in the whole pass.
func TestPredictSourceStops(t *testing.T) {
	tc := streamCases(t, 3*PredictChunk)[2]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	err := tc.clf.PredictSource(ctx, data.NewMemSource(tc.test), PredictChunk, func(*data.Batch, *Predictions) error {
		calls++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || calls != 1 {
		t.Errorf("cancelled in the first batch: %d batches, error %v", calls, err)
	}
	stop := errors.New("stop")
	calls = 0
	err = tc.clf.PredictSource(context.Background(), data.NewMemSource(tc.test), 100, func(*data.Batch, *Predictions) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Errorf("f's error: %d batches, error %v", calls, err)
	}

	bad := *tc.test
	bad.Y = append([]float64(nil), tc.test.Y...)
	bad.Y[PredictChunk+7] = 42
	if _, err := tc.clf.EvaluateSource(context.Background(), data.NewMemSource(&bad), PredictChunk); err == nil || !strings.Contains(err.Error(), "test-one-vs-rest scaled: example 4104: label 42") {
		t.Errorf("unknown label: %v", err)
	}
	bad.X = append([]float64(nil), tc.test.X...)
	bad.X[(PredictChunk+9)*bad.D+1] = math.MaxFloat64
	tc.clf.Model().Scaling.Mul[1] = 2 // so that the value overflows
	if err := tc.clf.PredictSource(context.Background(), data.NewMemSource(&bad), PredictChunk, func(*data.Batch, *Predictions) error { return nil }); err == nil || !strings.Contains(err.Error(), "example 4106 feature 2: scaled value") {
		t.Errorf("overflowing row: %v", err)
	}
}

// referenceMetrics computes Metrics from all the predictions at once with
// the whole-data functions of package passgp, as computeMetrics did
// before it summed batches: the reference that metricSums must match bit
// for bit.
func referenceMetrics(m *model.Model, prob *mat.Dense, lat *Predictions, truth []int) Metrics {
	n, k := prob.Dims()
	z := lat.Z
	pred := make([]int, n)
	m.DecideFromLatent(pred, lat.CZ, lat.CRho)
	r := Metrics{N: n, Classes: m.Outputs(), PerClassError: make([]float64, k), PerClassN: make([]int, k), Confusion: make([][]int, k)}
	for i := range r.Confusion {
		r.Confusion[i] = make([]int, k)
	}
	wrong := make([]int, k)
	var nerr int
	conf, correct := make([]float64, n), make([]bool, n)
	for i := 0; i < n; i++ {
		row := prob.RawRowView(i)
		t := truth[i]
		conf[i], correct[i] = row[pred[i]], pred[i] == t
		r.Confusion[t][pred[i]]++
		r.PerClassN[t]++
		if pred[i] != t {
			nerr++
			wrong[t]++
		}
		for c, p := range row {
			d := p
			if c == t {
				d = p - 1
			}
			r.Brier += d * d
		}
	}
	r.Error = float64(nerr) / float64(n)
	r.Brier /= float64(n)
	r.Calibrated = m.Calibration != nil
	switch {
	case r.Calibrated:
		r.NLP = m.Calibration.MeanNLL(lat.CZ, lat.CRho, calibrationTruth(m, truth))
	case m.Mode == model.OneVsRest:
		r.NLP = latentNLPMulti(z, truth)
	default:
		r.NLP = latentNLP(mat.Col(nil, 0, z), binaryTargets(m, truth, 0))
	}
	r.ECE = calib.ECE(conf, correct, eceBins)
	for c := range wrong {
		if r.PerClassN[c] > 0 {
			r.PerClassError[c] = float64(wrong[c]) / float64(r.PerClassN[c])
		}
	}
	if m.Mode == model.OneVsRest {
		nb := len(m.Binaries)
		r.BinaryError, r.BinaryBrier, r.BinaryNLP = make([]float64, nb), make([]float64, nb), make([]float64, nb)
		for c := range m.Binaries {
			zc, y := mat.Col(nil, c, z), binaryTargets(m, truth, c)
			r.BinaryError[c], r.BinaryBrier[c], r.BinaryNLP[c] = passgp.LatentErrorRate(zc, y), latentBrier(zc, y), latentNLP(zc, y)
		}
	}
	for _, b := range m.Binaries {
		r.ActiveSize = append(r.ActiveSize, len(b.Y))
	}
	return r
}
