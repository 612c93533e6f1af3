package passgpfast

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/model"
)

// Metrics are a classifier's figures on labelled data (Classifier.Evaluate,
// the held-out estimate of Fit; `passgp-fast eval` prints them).
type Metrics struct {
	N     int     `json:"n"`
	Error float64 `json:"error"` // fraction misclassified (argmax)
	// Brier is the mean over points of Σ_c (p_c - [y = c])² with the class
	// probabilities of predict; for two classes it is twice the binary
	// Brier score (p - [y=+1])².
	Brier float64 `json:"brier"`
	// NLP is the mean negative log predictive probability of the true
	// class (natural log), computed from the latents in log space
	// (latentNLP, latentNLPMulti, Calibration.MeanNLL), so that a
	// confident mistake is not clamped.
	NLP float64 `json:"nlp"`
	// ECE is the expected calibration error of the predicted class's
	// probability over 15 equal-width bins (calib.ECE).
	ECE float64 `json:"ece"`
	// Calibrated says whether the probabilities are the model's
	// calibrated ones (false: the raw q's, --raw or a version 1 model).
	Calibrated bool     `json:"calibrated"`
	Classes    []string `json:"classes"`
	// PerClassError is the error among the test points of each class
	// (NaN-free: a class without test points gets 0 and PerClassN 0).
	PerClassError []float64 `json:"per_class_error"`
	PerClassN     []int     `json:"per_class_n"`
	// Confusion[t][p] counts points of true class t predicted as p.
	Confusion [][]int `json:"confusion"`
	// BinaryError is, for one-vs-rest models, the error of each binary
	// classifier (class c against the rest, q > 0.5) on all points: the
	// paper's per-digit error.
	BinaryError []float64 `json:"binary_error,omitempty"`
	// BinaryBrier and BinaryNLP are, for one-vs-rest models, each binary
	// classifier's Brier score (q - [y = c])² and negative log predictive
	// probability on all points, from its own q(y=+1|x) (paper eq. 4).
	BinaryBrier []float64 `json:"binary_brier,omitempty"`
	BinaryNLP   []float64 `json:"binary_nlp,omitempty"`
	ActiveSize  []int     `json:"active_size"`
	// Relevance holds the model's feature relevances (Classifier.Relevances)
	// when its kernel has a length scale per feature; nil otherwise.
	Relevance *Relevances `json:"relevance,omitempty"`
}

// truthIndex maps labels to output columns of m (see model.Outputs);
// file names the labels in errors.
func truthIndex(m *model.Model, y []float64, file string) ([]int, error) {
	return truthIndexFrom(m, y, file, 0)
}

// truthIndexFrom is truthIndex of the labels y of examples start,
// start+1, ... (numbered so in errors).
func truthIndexFrom(m *model.Model, y []float64, file string, start int) ([]int, error) {
	t := make([]int, len(y))
	for i, v := range y {
		switch m.Mode {
		case model.PositiveVsRest:
			t[i] = 1
			if v == m.Classes[0] {
				t[i] = 0
			}
		default:
			k, ok := slices.BinarySearch(m.Classes, v)
			if !ok {
				return nil, fmt.Errorf("%s: example %d: label %v is not a class of the model (classes %s)", file, start+i+1, v, strings.Join(m.Outputs(), ", "))
			}
			t[i] = k
		}
	}
	return t, nil
}

// computeMetrics evaluates class probabilities prob (n×K) against truth;
// lat are the model's latents at the same rows (Classifier.Predict). Decisions
// are the model's (model.DecideFromLatent), and the negative log
// probabilities are computed from the latents in log space
// (Calibration.MeanNLL; latentNLP, latentNLPMulti for the raw
// q's), so that they are exact for confident mistakes. It is metricSums
// on one batch, so that EvaluateSource's figures are these.
func computeMetrics(m *model.Model, prob *mat.Dense, lat *Predictions, truth []int) Metrics {
	s := newMetricSums(m)
	s.add(prob, lat, truth)
	return s.metrics()
}

// eceBins is the number of bins of the expected calibration error.
const eceBins = 15

// calibrationTruth maps true output indices to the classes of m's
// calibration (calib.Fit's: 1 for the positive class of a
// binary model).
func calibrationTruth(m *model.Model, truth []int) []int {
	if m.Mode != model.PositiveVsRest {
		return truth
	}
	t := make([]int, len(truth))
	for i, v := range truth {
		t[i] = 1 - v
	}
	return t
}

// binaryTargets returns the ±1 labels of binary classifier c of m for the
// true output indices truth.
func binaryTargets(m *model.Model, truth []int, c int) []float64 {
	pos := c
	switch m.Mode {
	case model.Binary:
		pos = 1
	case model.PositiveVsRest:
		pos = 0
	}
	y := make([]float64, len(truth))
	for i, t := range truth {
		y[i] = -1
		if t == pos {
			y[i] = 1
		}
	}
	return y
}

// Report writes the human-readable report of r (`passgp-fast eval`).
func (r *Metrics) Report(w io.Writer) {
	fmt.Fprintf(w, "test points            %d\n", r.N)
	fmt.Fprintf(w, "test error             %.4f (%.2f%%)\n", r.Error, 100*r.Error)
	fmt.Fprintf(w, "Brier score            %.4f\n", r.Brier)
	fmt.Fprintf(w, "mean neg. log pred.    %.4f\n", r.NLP)
	cal := "calibrated"
	if !r.Calibrated {
		cal = "raw q"
	}
	fmt.Fprintf(w, "ECE (15 bins)          %.4f (%s probabilities)\n", r.ECE, cal)
	fmt.Fprintf(w, "\nper class:\n  %-8s %8s %10s", "class", "n", "error")
	if r.BinaryError != nil {
		fmt.Fprintf(w, " %12s %8s %8s", "1-vs-rest", "Brier", "NLP")
	}
	fmt.Fprintf(w, " %8s\n", "|A|")
	for c, name := range r.Classes {
		fmt.Fprintf(w, "  %-8s %8d %9.2f%%", name, r.PerClassN[c], 100*r.PerClassError[c])
		if r.BinaryError != nil {
			fmt.Fprintf(w, " %11.2f%% %8.4f %8.4f", 100*r.BinaryError[c], r.BinaryBrier[c], r.BinaryNLP[c])
		}
		switch {
		case c < len(r.ActiveSize) && len(r.ActiveSize) == len(r.Classes):
			fmt.Fprintf(w, " %8d", r.ActiveSize[c])
		case c == len(r.Classes)-1 && len(r.ActiveSize) == 1:
			fmt.Fprintf(w, " %8d", r.ActiveSize[0])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nconfusion matrix (rows: true class, columns: predicted):\n%8s", "")
	for _, name := range r.Classes {
		fmt.Fprintf(w, " %7s", name)
	}
	fmt.Fprintln(w)
	for t, row := range r.Confusion {
		fmt.Fprintf(w, "%8s", r.Classes[t])
		for _, v := range row {
			fmt.Fprintf(w, " %7d", v)
		}
		fmt.Fprintln(w)
	}
}
