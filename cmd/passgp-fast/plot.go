package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/plots"
)

func runPlot(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("plot", "--model M[,M2,...] --data FILE [--labels FILE] --out DIR",
		`Draws PNG figures for one or more models on labelled test data:
  per_class.png     error and active set size per class
  error_vs_size.png test error against active set size (one point per
                    model; with a single one-vs-rest model, one point per
                    binary classifier); with --x p-inc, error_vs_pinc.png
                    against the p_inc each model was trained with
  densities.png     predictive probability densities of correct and
                    incorrect predictions (paper Figure 5; first model)
  reliability.png   reliability diagram of the binary classifiers' q (first model)
  calibration.png   top-label reliability, raw q against calibrated (first model)
  trajectory.png    active set size per batch during training (first model)`)
	var df dataFlags
	df.register(fs, true)
	df.registerRaw(fs)
	df.notes = stderr
	models := fs.String("model", "", "comma-separated model `FILES` (required)")
	out := fs.String("out", "plots", "output `DIR`")
	xAxis := fs.String("x", "size", "x axis of the several-model error plot: size (mean |A|) or p-inc")
	if code, ok := fs.parse(args, stdout, stderr); !ok {
		return code
	}
	if *xAxis != "size" && *xAxis != "p-inc" {
		return usageErr(stderr, "plot", "--x: want size or p-inc, got %q", *xAxis)
	}
	files, err := plotAll(ctx, *models, &df, *out, *xAxis)
	if err != nil {
		return exitFor(stderr, "plot", err)
	}
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return exitOK
}

func plotAll(ctx context.Context, models string, df *dataFlags, out, xAxis string) ([]string, error) {
	if models == "" {
		return nil, errUsage("--model FILE is required")
	}
	var sizes, errs []float64
	var first *scored
	paths := strings.Split(models, ",")
	for i, p := range paths {
		sc, err := score(ctx, p, df)
		if err != nil {
			return nil, err
		}
		m, met := sc.m, sc.met
		total := 0
		for _, a := range met.ActiveSize {
			total += a
		}
		x := float64(total) / float64(len(met.ActiveSize))
		if xAxis == "p-inc" {
			var o struct {
				PInc *float64 `json:"p_inc"`
			}
			if err := json.Unmarshal(m.Options, &o); err != nil || o.PInc == nil {
				return nil, fmt.Errorf("%s: the model's training options do not record p_inc", p)
			}
			x = *o.PInc
		}
		sizes = append(sizes, x)
		errs = append(errs, 100*met.Error)
		if i == 0 {
			first = sc
		}
	}
	if err := testPlots(out, first.m, first.p, first.truth, first.met); err != nil {
		return nil, err
	}
	files := []string{"per_class.png", "densities.png", "reliability.png", "calibration.png"}
	if len(paths) > 1 {
		idx := make([]int, len(sizes))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(sizes[a], sizes[b]) })
		xs, ys := make([]float64, len(idx)), make([]float64, len(idx))
		for k, i := range idx {
			xs[k], ys[k] = sizes[i], errs[i]
		}
		name, title, xl := "error_vs_size.png", "Test error against active set size", "mean active set size per classifier"
		if xAxis == "p-inc" {
			name, title, xl = "error_vs_pinc.png", "Test error against p_inc", "p_inc"
		}
		if err := plots.Lines(filepath.Join(out, name), title, xl, "test error (%)", plots.Series{Name: "models", X: xs, Y: ys}); err != nil {
			return nil, err
		}
		files = append(files, name)
	}
	if err := trainingPlots(out, first.m); err != nil {
		return nil, err
	}
	if hasHistory(first.m) {
		files = append(files, "trajectory.png")
	}
	if len(paths) == 1 && first.m.Mode == model.OneVsRest {
		files = append(files, "error_vs_size.png")
	}
	for i := range files {
		files[i] = filepath.Join(out, files[i])
	}
	return files, nil
}

// testPlots writes per_class.png, densities.png, reliability.png and, for a
// one-vs-rest model, error_vs_size.png with one point per classifier.
func testPlots(dir string, m *model.Model, p *passgpfast.Predictions, truth []int, met *passgpfast.Metrics) error {
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

func hasHistory(m *model.Model) bool {
	for _, h := range m.History {
		if len(h) > 0 {
			return true
		}
	}
	return false
}

// trainingPlots writes trajectory.png: |A| after every batch, per class.
func trainingPlots(dir string, m *model.Model) error {
	if !hasHistory(m) {
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
