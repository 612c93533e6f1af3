package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/plots"
	"github.com/passgp-fast/passgp-fast/plots/figures"
)

func runPlot(ctx context.Context, _ invocation, args []string, stdout, stderr io.Writer) int {
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
  trajectory.png    active set size per batch during training (first model)
  relevance.png     feature relevances of an ARD kernel (seard, seard+bias;
                    first model)`)
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
	if err := figures.Test(out, first.m, first.p, first.truth, first.met); err != nil {
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
	if err := figures.Training(out, first.m); err != nil {
		return nil, err
	}
	if figures.HasHistory(first.m) {
		files = append(files, "trajectory.png")
	}
	wrote, err := figures.Relevance(out, first.m)
	if err != nil {
		return nil, err
	}
	if wrote {
		files = append(files, "relevance.png")
	}
	if len(paths) == 1 && first.m.Mode == model.OneVsRest {
		files = append(files, "error_vs_size.png")
	}
	for i := range files {
		files[i] = filepath.Join(out, files[i])
	}
	return files, nil
}
