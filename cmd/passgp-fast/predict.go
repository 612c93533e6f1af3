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

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
)

// exitFor returns the exit code and prints err.
func exitFor(stderr io.Writer, cmd string, err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		return usageErr(stderr, cmd, "%s", ue.msg)
	}
	return fail(stderr, cmd, err)
}

// loadForPrediction loads the model and the data file sized to it.
func loadForPrediction(modelPath string, df *dataFlags) (*model.Model, *data.Dataset, error) {
	if modelPath == "" {
		return nil, nil, errUsage("--model FILE is required")
	}
	if df.path == "" {
		return nil, nil, errUsage("--data FILE is required")
	}
	m, err := model.LoadWith(modelPath, model.LoadOptions{MaxBytes: df.maxBytes()})
	if err != nil {
		return nil, nil, err
	}
	switch {
	case df.raw:
		m.Calibration = nil
	case m.Calibration == nil && df.notes != nil:
		fmt.Fprintf(df.notes, "passgp-fast: note: %s has no calibration (format version %d): its probabilities are the raw one-vs-rest q's\n", modelPath, m.FormatVersion)
	}
	ds, err := df.load(m.D())
	if err != nil {
		return nil, nil, err
	}
	return m, ds, nil
}

// predictChunk is the number of rows that predictAll scores between two
// checks of its context: a fraction of a second of work.
const predictChunk = 4096

// latents are a model's outputs at the rows of a data set: the binary
// classifiers' raw latents z (q(y=+1|x) = Φ(z), paper eq. 4) and the
// calibration's inputs cz and crho: model.LatentShareTo's latents and
// prior-variance shares, moved towards the prior's far from the training
// data by the calibration's Gate with the correlations of
// model.LatentShareNearTo (as model.ProbTo does). Near the data cz is z.
type latents struct{ z, cz, crho *mat.Dense }

// predictAll returns the class probabilities and the model's latents. It
// scores the rows in chunks and stops with ctx's error when ctx ends.
func predictAll(ctx context.Context, m *model.Model, ds *data.Dataset) (prob *mat.Dense, lat latents, err error) {
	if ds.N == 0 {
		return nil, latents{}, errors.New("no data rows to predict")
	}
	if m.Scaling != nil {
		// The model scales the inputs itself; a value that would overflow
		// is the data file's error, not a NaN later.
		if err := m.Scaling.Check(ds); err != nil {
			return nil, latents{}, err
		}
	}
	x := ds.Dense()
	nb := len(m.Binaries)
	z, rho := mat.NewDense(ds.N, nb, nil), mat.NewDense(ds.N, nb, nil)
	var near *mat.Dense
	if m.Calibration != nil {
		near = mat.NewDense(ds.N, nb, nil)
	}
	for lo := 0; lo < ds.N; lo += predictChunk {
		if err := ctx.Err(); err != nil {
			return nil, latents{}, err
		}
		hi := min(lo+predictChunk, ds.N)
		xs := x.Slice(lo, hi, 0, ds.D).(*mat.Dense)
		var nc *mat.Dense
		if near != nil {
			nc = near.Slice(lo, hi, 0, nb).(*mat.Dense)
		}
		m.LatentShareNearTo(z.Slice(lo, hi, 0, nb).(*mat.Dense), rho.Slice(lo, hi, 0, nb).(*mat.Dense), nc, xs)
	}
	lat.z, lat.cz, lat.crho = z, z, rho
	if near != nil {
		lat.cz, lat.crho = m.Calibration.Gate(z, rho, near)
	}
	prob = mat.NewDense(ds.N, len(m.Outputs()), nil)
	m.ProbFromLatent(prob, lat.cz, lat.crho)
	return prob, lat, nil
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
	m, ds, err := loadForPrediction(*modelPath, &df)
	if err != nil {
		return exitFor(stderr, "predict", err)
	}
	prob, lat, err := predictAll(ctx, m, ds)
	if err != nil {
		return fail(stderr, "predict", err)
	}
	pred := make([]int, ds.N)
	m.DecideFromLatent(pred, lat.cz, lat.crho)
	w := stdout
	var f *os.File
	if *out != "" {
		f, err = os.Create(*out)
		if err != nil {
			return fail(stderr, "predict", err)
		}
		w = f
	}
	if err := writeCSV(w, m, prob, pred); err != nil {
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

// writeCSV writes the decisions pred (indices into m.Outputs) and the
// probabilities.
func writeCSV(w io.Writer, m *model.Model, prob *mat.Dense, pred []int) error {
	bw := bufio.NewWriter(w)
	outs := m.Outputs()
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
	r.print(stdout)
	return exitOK
}

func evaluate(ctx context.Context, modelPath string, df *dataFlags) (*metrics, error) {
	s, err := score(ctx, modelPath, df)
	if err != nil {
		return nil, err
	}
	return &s.met, nil
}

// scored is a model's predictions on labelled data and their metrics.
type scored struct {
	m     *model.Model
	prob  *mat.Dense
	lat   latents
	truth []int
	met   metrics
}

// score loads the model and the labelled data, predicts and computes the
// metrics (shared by eval and plot).
func score(ctx context.Context, modelPath string, df *dataFlags) (*scored, error) {
	m, ds, err := loadForPrediction(modelPath, df)
	if err != nil {
		return nil, err
	}
	if ds.Y == nil {
		return nil, fmt.Errorf("%s: no labels (give --labels FILE for IDX images)", df.path)
	}
	truth, err := truthIndex(m, ds.Y, df.path)
	if err != nil {
		return nil, err
	}
	prob, lat, err := predictAll(ctx, m, ds)
	if err != nil {
		return nil, err
	}
	return &scored{m: m, prob: prob, lat: lat, truth: truth, met: computeMetrics(m, prob, lat, truth)}, nil
}

func printJSON(stdout, stderr io.Writer, cmd string, v any) int {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fail(stderr, cmd, err)
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return exitOK
}
