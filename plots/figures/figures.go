// Package figures draws the PNG figures of a classifier: its training
// trajectory, the feature relevances of an ARD kernel and, on labelled
// test data, its per-class errors, the densities of its predictive
// probabilities (paper Figure 5) and its reliability diagrams. The
// command's train, demo and plot write them.
package figures

import (
	"fmt"
	"path/filepath"
	"slices"

	"gonum.org/v1/gonum/mat"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/plots"
)

// Test writes per_class.png, densities.png, reliability.png and, for a
// one-vs-rest model, error_vs_size.png with one point per classifier.
func Test(dir string, m *model.Model, p *passgpfast.Predictions, truth []int, met *passgpfast.Metrics) error {
	prob, z, pred := p.Prob, p.Z, p.Decision
	n, _ := prob.Dims()
	// Per class: the binary error of each classifier (one-vs-rest) or the
	// error per true class.
	names := met.Classes
	perr := met.PerClassError
	act := make([]int, len(names))
	if m.Mode == model.OneVsRest {
		perr = met.BinaryError
		copy(act, met.ActiveSize)
	} else {
		for i := range act {
			act[i] = met.ActiveSize[0]
		}
	}
	if err := plots.PerClass(filepath.Join(dir, "per_class.png"), names, perr, act); err != nil {
		return err
	}
	var correct, incorrect []float64
	for i := 0; i < n; i++ {
		row := prob.RawRowView(i)
		p := pred[i]
		if p == truth[i] {
			correct = append(correct, row[p])
		} else {
			incorrect = append(incorrect, row[p])
		}
	}
	if err := plots.Densities(filepath.Join(dir, "densities.png"), correct, incorrect, 25); err != nil {
		return err
	}
	// Reliability of the binary decisions: every classifier's q(y=+1|x)
	// against whether the point belongs to its class.
	var ps []float64
	var outcome []bool
	for c := range m.Binaries {
		for i := 0; i < n; i++ {
			ps = append(ps, ep.Phi(z.At(i, c)))
			switch m.Mode {
			case model.OneVsRest:
				outcome = append(outcome, truth[i] == c)
			case model.Binary:
				outcome = append(outcome, truth[i] == 1)
			default:
				outcome = append(outcome, truth[i] == 0)
			}
		}
	}
	if err := plots.Reliability(filepath.Join(dir, "reliability.png"), ps, outcome, 10); err != nil {
		return err
	}
	// Top-label reliability of the raw q's against the calibrated
	// probabilities (when the model has a calibration).
	rawP := mat.NewDense(n, len(m.Outputs()), nil)
	m.RawProbFromLatent(rawP, z)
	rawPred := make([]int, n)
	m.RawDecideFromLatent(rawPred, z)
	top := func(p *mat.Dense, pred []int) plots.ReliabilitySeries {
		s := plots.ReliabilitySeries{Conf: make([]float64, n), Correct: make([]bool, n)}
		for i := range n {
			s.Conf[i], s.Correct[i] = p.At(i, pred[i]), pred[i] == truth[i]
		}
		return s
	}
	series := []plots.ReliabilitySeries{top(rawP, rawPred)}
	series[0].Name = "raw q (paper eq. 4)"
	if m.Calibration != nil {
		c := top(prob, pred)
		c.Name = "calibrated"
		series = append(series, c)
	}
	if err := plots.Reliabilities(filepath.Join(dir, "calibration.png"), 15, series...); err != nil {
		return err
	}
	if m.Mode == model.OneVsRest {
		idx := make([]int, len(act))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return act[a] - act[b] })
		xs, ys := make([]float64, len(idx)), make([]float64, len(idx))
		for k, i := range idx {
			xs[k], ys[k] = float64(act[i]), 100*perr[i]
		}
		if err := plots.Lines(filepath.Join(dir, "error_vs_size.png"), "Binary test error against active set size",
			"active set size |A| of the classifier", "one-vs-rest test error (%)", plots.Series{Name: "classifiers", X: xs, Y: ys, Points: true}); err != nil {
			return err
		}
	}
	return nil
}

// HasHistory reports whether m holds a training history.
func HasHistory(m *model.Model) bool {
	for _, h := range m.History {
		if len(h) > 0 {
			return true
		}
	}
	return false
}

// Training writes trajectory.png: |A| after every batch, per class.
func Training(dir string, m *model.Model) error {
	if !HasHistory(m) {
		return nil
	}
	var series []plots.Series
	names := m.Outputs()
	for k, h := range m.History {
		if len(h) == 0 {
			continue
		}
		s := plots.Series{Name: "class " + names[min(k, len(names)-1)]}
		if m.Mode == model.Binary {
			s.Name = "class " + names[1]
		}
		for i, b := range h {
			s.X = append(s.X, float64(i+1))
			s.Y = append(s.Y, float64(b.Active))
		}
		series = append(series, s)
	}
	return plots.Lines(filepath.Join(dir, "trajectory.png"), "Active set size during training", "batch", "|A|", series...)
}

// Relevance writes relevance.png, the feature relevances of a model whose
// kernel has a length scale per feature (passgpfast.Relevances: 1/ℓ² in
// the model's scaled inputs, normalised to the most relevant feature and,
// for one-vs-rest, averaged over the classes). written is false, and
// nothing is drawn, for other kernels.
func Relevance(dir string, m *model.Model) (written bool, err error) {
	r, ok := passgpfast.NewClassifier(m).Relevances()
	if !ok {
		return false, nil
	}
	ylabel := "relevance 1/ℓ² (max 1)"
	if len(r.Raw) > 1 {
		ylabel = fmt.Sprintf("mean of %d classifiers' 1/ℓ² (each max 1)", len(r.Raw))
	}
	title := "Feature relevance (ARD)"
	if r.Scale != "" {
		title += ", " + r.Scale + "-scaled inputs"
	}
	return true, plots.Relevance(filepath.Join(dir, "relevance.png"), title, ylabel, r.Mean)
}
