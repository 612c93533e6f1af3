package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"gonum.org/v1/gonum/mat"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
)

// exitFor returns the exit code and prints err.
func exitFor(stderr io.Writer, cmd string, err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		return usageErr(stderr, cmd, "%s", ue.msg)
	}
	var ce *passgpfast.ConfigError
	if errors.As(err, &ce) {
		return usageErr(stderr, cmd, "%s", ce.Msg)
	}
	return fail(stderr, cmd, err)
}

// loadForPrediction loads the classifier and the data file sized to it.
func loadForPrediction(modelPath string, df *dataFlags) (*passgpfast.Classifier, *data.Dataset, error) {
	if modelPath == "" {
		return nil, nil, errUsage("--model FILE is required")
	}
	if df.path == "" {
		return nil, nil, errUsage("--data FILE is required")
	}
	clf, err := passgpfast.LoadFile(modelPath, model.LoadOptions{MaxBytes: df.maxBytes()})
	if err != nil {
		return nil, nil, err
	}
	m := clf.Model()
	switch {
	case df.raw:
		m.Calibration = nil
	case m.Calibration == nil && df.notes != nil:
		fmt.Fprintf(df.notes, "passgp-fast: note: %s has no calibration (format version %d): its probabilities are the raw one-vs-rest q's\n", modelPath, m.FormatVersion)
	}
	ds, err := df.load(clf.D())
	if err != nil {
		return nil, nil, err
	}
	return clf, ds, nil
}

func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("predict", "--model M --data FILE [--labels FILE] [--out FILE]",
		`Writes one CSV row per data point: the predicted class and the
probability of every class (header: predicted,p_<class>,...). The
probabilities are the model's calibrated ones (fitted on held-out
predictions of the training points when it was trained) and the predicted
class is the most probable; far from every active point (beyond about 4
length scales of an SE kernel) they are the training labels' class shares.
With --raw, or for a model file of format version 1, they are the
classifiers' q(y=+1|x) (paper eq. 4), normalised over the classes for
one-vs-rest models. Labels in the data file are ignored.`)
	var df dataFlags
	df.register(fs, true)
	df.registerRaw(fs)
	df.notes = stderr
	modelPath := fs.String("model", "", "model `FILE` written by train (required)")
	out := fs.String("out", "", "output CSV `FILE` (default: standard output)")
	if code, ok := fs.parse(args, stdout, stderr); !ok {
		return code
	}
	clf, ds, err := loadForPrediction(*modelPath, &df)
	if err != nil {
		return exitFor(stderr, "predict", err)
	}
	p, err := clf.PredictDataset(ctx, ds)
	if err != nil {
		return fail(stderr, "predict", err)
	}
	w := stdout
	var f *os.File
	if *out != "" {
		f, err = os.Create(*out)
		if err != nil {
			return fail(stderr, "predict", err)
		}
		w = f
	}
	if err := writeCSV(w, clf.Outputs(), p.Prob, p.Decision); err != nil {
		if f != nil {
			f.Close()
		}
		return fail(stderr, "predict", err)
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return fail(stderr, "predict", err)
		}
	}
	return exitOK
}

// writeCSV writes the decisions pred (indices into outs) and the
// probabilities.
func writeCSV(w io.Writer, outs []string, prob *mat.Dense, pred []int) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("predicted")
	for _, o := range outs {
		bw.WriteString(",p_" + o)
	}
	bw.WriteByte('\n')
	n, _ := prob.Dims()
	for i := 0; i < n; i++ {
		row := prob.RawRowView(i)
		bw.WriteString(outs[pred[i]])
		for _, p := range row {
			bw.WriteByte(',')
			bw.WriteString(strconv.FormatFloat(p, 'g', -1, 64))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("eval", "--model M --data FILE [--labels FILE] [--json]",
		`Evaluates a model on labelled data: test error, Brier score (mean over
points of the squared distance between the class probability vector and
the one-hot truth), mean negative log predictive probability of the true
class, expected calibration error (ECE: 15 equal-width bins of the
predicted class's probability), per-class error (and, for one-vs-rest models, each binary
classifier's error: the paper's per-digit error) and the confusion matrix.`)
	var df dataFlags
	df.register(fs, true)
	df.registerRaw(fs)
	df.notes = stderr
	modelPath := fs.String("model", "", "model `FILE` written by train (required)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the report")
	if code, ok := fs.parse(args, stdout, stderr); !ok {
		return code
	}
	r, err := evaluate(ctx, *modelPath, &df)
	if err != nil {
		return exitFor(stderr, "eval", err)
	}
	if *asJSON {
		return printJSON(stdout, stderr, "eval", r)
	}
	r.Report(stdout)
	return exitOK
}

func evaluate(ctx context.Context, modelPath string, df *dataFlags) (*passgpfast.Metrics, error) {
	s, err := score(ctx, modelPath, df)
	if err != nil {
		return nil, err
	}
	return s.met, nil
}

// scored is a model's predictions on labelled data and their metrics.
type scored struct {
	m     *model.Model
	p     *passgpfast.Predictions
	truth []int
	met   *passgpfast.Metrics
}

// score loads the model and the labelled data, predicts and computes the
// metrics (shared by eval and plot).
func score(ctx context.Context, modelPath string, df *dataFlags) (*scored, error) {
	clf, ds, err := loadForPrediction(modelPath, df)
	if err != nil {
		return nil, err
	}
	if ds.Y == nil {
		return nil, fmt.Errorf("%s: no labels (give --labels FILE for IDX images)", df.path)
	}
	ds.Source = df.path
	met, p, err := clf.Evaluate(ctx, ds)
	if err != nil {
		return nil, err
	}
	truth, _ := clf.Truth(ds.Y, df.path)
	return &scored{m: clf.Model(), p: p, truth: truth, met: met}, nil
}

func printJSON(stdout, stderr io.Writer, cmd string, v any) int {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fail(stderr, cmd, err)
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return exitOK
}
