package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/passgp-fast/passgp-fast/synth"
)

// write stores the runs so far as scaling.json, scaling.md and
// scaling.png in dir.
func write(dir string, task synth.Task, bayes float64, runs []Run) error {
	b, err := json.MarshalIndent(runs, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "scaling.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	var m strings.Builder
	fmt.Fprintf(&m, "Task: synth, d = %d of which %d relevant, %.0f%% of the labels flipped, balanced; Bayes error %.2f%% against the noisy labels. Test set: 20,000 points of another seed.\n\n",
		task.D, task.Relevant, 100*task.Flip, 100*bayes)
	m.WriteString("| tool | N | train time (s) | peak RSS (GiB) | \\|A\\| / SVs | test error | Brier | NLP | ECE | note |\n")
	m.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range runs {
		t := fmt.Sprintf("%.1f", r.Seconds)
		if r.GridSeconds > 0 {
			t = fmt.Sprintf("%.1f (grid %.1f)", r.Seconds, r.GridSeconds)
		}
		if r.Note != "" {
			fmt.Fprintf(&m, "| %s | %d | %s | | | | | | | %s |\n", r.Tool, r.N, t, r.Note)
			continue
		}
		fmt.Fprintf(&m, "| %s | %d | %s | %.2f | %d | %.2f%% | %.4f | %.4f | %.2f%% | |\n",
			r.Tool, r.N, t, r.MaxRSSGiB, r.Active, 100*r.Error, r.Brier, r.NLP, 100*r.ECE)
	}
	if err := os.WriteFile(filepath.Join(dir, "scaling.md"), []byte(m.String()), 0o644); err != nil {
		return err
	}
	return plotTime(filepath.Join(dir, "scaling.png"), runs)
}

// plotTime draws training time against N on log-log axes, one line per
// tool.
func plotTime(path string, runs []Run) error {
	p := plot.New()
	p.Title.Text = "Training time against N (noisy synth task, 2-core machine)"
	p.X.Label.Text = "N (training points)"
	p.Y.Label.Text = "training time (s)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	for i, tool := range []string{"passgp-fast", "libsvm"} {
		var xy plotter.XYs
		for _, r := range runs {
			if r.Tool == tool && r.Note == "" && r.Seconds > 0 {
				xy = append(xy, plotter.XY{X: float64(r.N), Y: r.Seconds})
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color = plotter.DefaultLineStyle.Color
		if i == 1 {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			pts.Shape = draw.TriangleGlyph{}
		}
		p.Add(l, pts)
		name := tool + " (" + settingOf(runs, tool) + ")"
		if tool == "libsvm" {
			name = "LIBSVM (grid + -b 1)"
		}
		p.Legend.Add(name, l, pts)
	}
	return p.Save(6*vg.Inch, 4*vg.Inch, path)
}

// settingOf returns the setting of tool's first run ("train" plus its
// flags).
func settingOf(runs []Run, tool string) string {
	for _, r := range runs {
		if r.Tool == tool {
			return r.Setting
		}
	}
	return tool
}
