package cli

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

// loadModel loads the classifier for predict, eval and plot.
func loadModel(modelPath string, df *dataFlags) (*passgpfast.Classifier, error) {
	if modelPath == "" {
		return nil, errUsage("--model FILE is required")
	}
	if df.path == "" {
		return nil, errUsage("--data FILE is required")
	}
	clf, err := passgpfast.LoadFile(modelPath, model.LoadOptions{MaxBytes: df.maxBytes()})
	if err != nil {
		return nil, err
	}
	m := clf.Model()
	switch {
	case df.raw:
		m.Calibration = nil
	case m.Calibration == nil && df.notes != nil:
		fmt.Fprintf(df.notes, "passgp-fast: note: %s has no calibration (format version %d): its probabilities are the raw one-vs-rest q's\n", modelPath, m.FormatVersion)
	}
	return clf, nil
}

// loadForPrediction loads the classifier and the data file sized to it.
func loadForPrediction(modelPath string, df *dataFlags) (*passgpfast.Classifier, *data.Dataset, error) {
	clf, err := loadModel(modelPath, df)
	if err != nil {
		return nil, nil, err
	}
	ds, err := df.load(clf.D())
	if err != nil {
		return nil, nil, err
	}
	return clf, ds, nil
}

// openForPrediction loads the classifier and opens the data file as a
// stream sized to it (dataFlags.open).
func openForPrediction(ctx context.Context, modelPath string, df *dataFlags) (*passgpfast.Classifier, data.Source, error) {
	clf, err := loadModel(modelPath, df)
	if err != nil {
		return nil, nil, err
	}
	src, err := df.open(ctx, clf.D())
	if err != nil {
		return nil, nil, err
	}
	return clf, src, nil
}

func runPredict(ctx context.Context, _ invocation, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("predict", "--model M --data FILE [--labels FILE] [--out FILE]",
		`Writes one CSV row per data point: the predicted class and the
probability of every class (header: predicted,p_<class>,...). The
probabilities are the model's calibrated ones (fitted on held-out
predictions of the training points when it was trained) and the predicted
class is the most probable; far from every active point (beyond about 4
length scales of an SE kernel) they are the training labels' class shares.
With --raw, or for a model file of format version 1, they are the
classifiers' q(y=+1|x) (paper eq. 4), normalised over the classes for
one-vs-rest models. Labels in the data file are ignored. The data are
read and the rows written a batch at a time (--max-mem), so the data file
(a binary one from convert, say) may be larger than memory.`)
	var df dataFlags
	df.register(fs, true)
	df.registerRaw(fs)
	df.notes = stderr
	modelPath := fs.String("model", "", "model `FILE` written by train (required)")
	out := fs.String("out", "", "output CSV `FILE` (default: standard output)")
	if code, ok := fs.parse(args, stdout, stderr); !ok {
		return code
	}
	clf, src, err := openForPrediction(ctx, *modelPath, &df)
	if err != nil {
		return exitFor(stderr, "predict", err)
	}
	defer src.Close()
	write := func(w io.Writer) error {
		cw := newCSVWriter(w, clf.Outputs())
		err := clf.PredictSource(ctx, src, df.batchRows(src, len(clf.Model().Binaries)), func(_ *data.Batch, p *passgpfast.Predictions) error {
			return cw.rows(p.Prob, p.Decision)
		})
		if err != nil {
			return err
		}
		return cw.flush()
	}
	if *out == "" {
		err = write(stdout)
	} else {
		// A failed prediction leaves no partial file (nor an old one
		// overwritten).
		err = data.WriteFileAtomic(*out, func(f *os.File) error { return write(f) })
	}
	if err != nil {
		return fail(stderr, "predict", err)
	}
	return exitOK
}

// csvWriter writes predict's CSV a batch of rows at a time.
type csvWriter struct {
	bw   *bufio.Writer
	outs []string
}

// newCSVWriter writes the header of the outputs outs to w.
func newCSVWriter(w io.Writer, outs []string) *csvWriter {
	c := &csvWriter{bw: bufio.NewWriter(w), outs: outs}
	c.bw.WriteString("predicted")
	for _, o := range outs {
		c.bw.WriteString(",p_" + o)
	}
	c.bw.WriteByte('\n')
	return c
}

// rows writes the decisions pred (indices into outs) and the
// probabilities.
func (c *csvWriter) rows(prob *mat.Dense, pred []int) error {
	n, _ := prob.Dims()
	for i := 0; i < n; i++ {
		row := prob.RawRowView(i)
		c.bw.WriteString(c.outs[pred[i]])
		for _, p := range row {
			c.bw.WriteByte(',')
			c.bw.WriteString(strconv.FormatFloat(p, 'g', -1, 64))
		}
		if err := c.bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

func (c *csvWriter) flush() error { return c.bw.Flush() }

// writeCSV writes the decisions pred (indices into outs) and the
// probabilities, header first.
func writeCSV(w io.Writer, outs []string, prob *mat.Dense, pred []int) error {
	c := newCSVWriter(w, outs)
	if err := c.rows(prob, pred); err != nil {
		return err
	}
	return c.flush()
}

func runEval(ctx context.Context, _ invocation, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("eval", "--model M --data FILE [--labels FILE] [--json]",
		`Evaluates a model on labelled data: test error, Brier score (mean over
points of the squared distance between the class probability vector and
the one-hot truth), mean negative log predictive probability of the true
class, expected calibration error (ECE: 15 equal-width bins of the
predicted class's probability), per-class error (and, for one-vs-rest models, each binary
classifier's error: the paper's per-digit error) and the confusion matrix.
The data are read a batch at a time (--max-mem), so the data file (a
binary one from convert, say) may be larger than memory.`)
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

// evaluate scores the model on the labelled data file, read a batch at a
// time (passgpfast.EvaluateSource).
func evaluate(ctx context.Context, modelPath string, df *dataFlags) (*passgpfast.Metrics, error) {
	clf, src, err := openForPrediction(ctx, modelPath, df)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if !src.Labelled() {
		return nil, errNoLabels(df.path)
	}
	return clf.EvaluateSource(ctx, src, df.batchRows(src, len(clf.Model().Binaries)))
}

func errNoLabels(path string) error {
	return fmt.Errorf("%s: no labels (give --labels FILE for IDX images)", path)
}

// scored is a model's predictions on labelled data and their metrics.
type scored struct {
	m     *model.Model
	p     *passgpfast.Predictions
	truth []int
	met   *passgpfast.Metrics
}

// score loads the model and the labelled data, predicts and computes the
// metrics, keeping every prediction (plot).
func score(ctx context.Context, modelPath string, df *dataFlags) (*scored, error) {
	clf, ds, err := loadForPrediction(modelPath, df)
	if err != nil {
		return nil, err
	}
	if ds.Y == nil {
		return nil, errNoLabels(df.path)
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
