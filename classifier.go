package passgpfast

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// Classifier is a trained classifier: package model's Model with the
// held-out estimate of its training run.
//
// Serving: every prediction method only reads the Classifier, so any
// number of goroutines may call them at once, and each result is the one
// the call computes alone (bit for bit). Two policies are on offer, both
// without any process-wide setting:
//
//   - The Classifier itself (the default) scores one call's rows with
//     BLAS, whose library is multi-threaded by default (OpenBLAS: one
//     thread per core): one call uses every core, the fastest for one
//     large job. Concurrent calls take turns at that work, since
//     concurrent multi-threaded OpenBLAS calls contend for one thread
//     pool (0.77x the points per second of one goroutine with two).
//   - Serving() returns a view of the same model whose calls each run on
//     the calling goroutine alone, with no BLAS call (la's serial
//     kernels): one core per call whatever the BLAS setting, so a service
//     that predicts from many goroutines scales with the cores. Its
//     results are bit for bit the same for any number of goroutines and
//     agree with the default's within rounding (ep's serial prediction).
//
// A service shares clf.Serving() between its goroutines; a batch job uses
// clf itself.
type Classifier struct {
	m *model.Model
	// heldOut is the held-out estimate of the training run (nil for a
	// loaded classifier or a binary run resumed after its classifier
	// finished).
	heldOut *Metrics
	// serving selects the serial prediction (Serving).
	serving bool
}

// NewClassifier wraps a model (from model.Load or passgp's training).
func NewClassifier(m *model.Model) *Classifier { return &Classifier{m: m} }

// Model returns the underlying model.
func (c *Classifier) Model() *model.Model { return c.m }

// Classes returns the class labels (ascending); for a positive-vs-rest
// classifier, the positive label alone.
func (c *Classifier) Classes() []float64 { return append([]float64(nil), c.m.Classes...) }

// Outputs names the probability columns: the class labels, or
// [positive, "rest"] for a positive-vs-rest classifier.
func (c *Classifier) Outputs() []string { return c.m.Outputs() }

// D is the number of input features.
func (c *Classifier) D() int { return c.m.D() }

// HeldOut returns the held-out estimate of the test figures: the
// calibrated probabilities of the training points' held-out predictions
// (each active point left out of the posterior, paper eq. 3; each
// inactive point's prediction, eq. 4), which needs no test data, the
// counterpart of LIBSVM's cross-validation. ok is false for a loaded
// classifier and a binary run resumed after its classifier finished.
func (c *Classifier) HeldOut() (m Metrics, ok bool) {
	if c.heldOut == nil {
		return Metrics{}, false
	}
	return *c.heldOut, true
}

// Save writes the classifier in the model file format (versioned,
// checksummed; docs/model-format.md).
func (c *Classifier) Save(w io.Writer) error {
	b, err := model.Encode(c.m)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// SaveFile writes the classifier to path atomically (model.Save).
func (c *Classifier) SaveFile(path string) error { return model.Save(path, c.m) }

// Load reads a classifier written by Save or SaveFile (or train). Its
// predictions are bit for bit the saved classifier's.
func Load(r io.Reader, o model.LoadOptions) (*Classifier, error) {
	var b bytes.Buffer
	if _, err := b.ReadFrom(r); err != nil {
		return nil, err
	}
	m, err := model.DecodeWith(b.Bytes(), o)
	if err != nil {
		return nil, err
	}
	return &Classifier{m: m}, nil
}

// LoadFile reads the model file at path; errors name it.
func LoadFile(path string, o model.LoadOptions) (*Classifier, error) {
	m, err := model.LoadWith(path, o)
	if err != nil {
		return nil, err
	}
	return &Classifier{m: m}, nil
}

// Evaluate predicts the rows of the labelled data set ds and scores them
// against its labels; errors name ds.Source.
func (c *Classifier) Evaluate(ctx context.Context, ds *data.Dataset) (*Metrics, *Predictions, error) {
	truth, err := truthIndex(c.m, ds.Y, ds.Source)
	if err != nil {
		return nil, nil, err
	}
	p, err := c.PredictDataset(ctx, ds)
	if err != nil {
		return nil, nil, err
	}
	met := computeMetrics(c.m, p.Prob, p, truth)
	return &met, p, nil
}

// Truth maps labels to output columns (Outputs); file names them in
// errors.
func (c *Classifier) Truth(y []float64, file string) ([]int, error) { return truthIndex(c.m, y, file) }

// heldOutMetrics scores the model m on the held-out predictions of its
// training points (rows x, labels y; those of r.held), cross-fitted
// (crossFitMetrics), with PASS-GP's active points rescored where rescore
// is set (estimateLatents). ok is false when the run has no held-out
// latents for every classifier.
func (r *recorder) heldOutMetrics(ctx context.Context, m *model.Model, x passgp.Rows, y []float64, rescore bool) (met Metrics, ok bool, err error) {
	all := y
	y = passgp.Gather(y, r.held)
	n, k := len(y), len(m.Binaries)
	if len(r.heldOut) != k || len(r.heldShare) != k {
		return Metrics{}, false, nil
	}
	z, rho := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
	for j := range k {
		if len(r.heldOut[j]) != n || len(r.heldShare[j]) != n {
			return Metrics{}, false, nil
		}
		z.SetCol(j, r.heldOut[j])
		rho.SetCol(j, r.heldShare[j])
	}
	truth, err := truthIndex(m, y, "training data")
	if err != nil {
		return Metrics{}, false, err
	}
	if m.Calibration == nil {
		return Metrics{}, false, nil
	}
	ze, re, err := estimateLatents(ctx, m, x, all, r.held, truth, rescore, z, rho)
	if err != nil {
		return Metrics{}, false, err
	}
	met, err = crossFitMetrics(m, z, rho, ze, re, truth, r.seed)
	return met, err == nil, err
}

// crossFitMetrics scores the estimate's latents ze, re of m's training
// points (classes truth) fold by fold, each fold through a calibration
// fitted on the others' held-out latents z, rho, as m's own calibration
// is (calib.CrossFit), so that no point is scored by a map fitted on it.
// ze differs from z at active points, scored as if the selection had run
// without them (estimateLatents). The latents are already the
// calibration's inputs (passgp moves those far from the active set), and
// serve as the raw ones too.
func crossFitMetrics(m *model.Model, z, rho, ze, re *mat.Dense, truth []int, seed uint64) (Metrics, error) {
	folds, cals, err := calib.CrossFit(z, rho, calibrationTruth(m, truth), seed)
	if err != nil {
		return Metrics{}, err
	}
	s := newMetricSums(m)
	_, k := z.Dims()
	for f, rows := range folds {
		if len(rows) == 0 {
			continue
		}
		mf := *m
		mf.Calibration = cals[f]
		zf, rf := mat.NewDense(len(rows), k, nil), mat.NewDense(len(rows), k, nil)
		tf := make([]int, len(rows))
		for a, i := range rows {
			zf.SetRow(a, ze.RawRowView(i))
			rf.SetRow(a, re.RawRowView(i))
			tf[a] = truth[i]
		}
		prob := mat.NewDense(len(rows), len(m.Outputs()), nil)
		mf.ProbFromLatent(prob, zf, rf)
		s.m = &mf
		s.add(prob, &Predictions{Prob: prob, Z: zf, CZ: zf, CRho: rf}, tf)
	}
	s.m = m
	return s.metrics(), nil
}

// errNoRows is Predict's error for an empty input.
var errNoRows = errors.New("no data rows to predict")

func checkCols(c *Classifier, x *mat.Dense) error {
	if _, d := x.Dims(); d != c.D() {
		return fmt.Errorf("%d features, but the classifier was trained on %d", d, c.D())
	}
	return nil
}
