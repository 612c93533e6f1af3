package plots

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// maxLabelledBars is the largest number of bars that get one tick label
// each; wider charts fall back to gonum/plot's numeric ticks.
const maxLabelledBars = 40

// Relevance writes a bar chart to path with one bar per input feature:
// bar j (drawn at x = j+1, the 1-based feature number) has height
// rel[j], the feature's relevance (1/ℓ² of an ARD kernel, normalised).
// ylabel says what the heights are.
func Relevance(path, title, ylabel string, rel []float64) error {
	d := len(rel)
	if d == 0 {
		return fmt.Errorf("plots: Relevance needs at least one feature")
	}
	if err := finite("rel", rel); err != nil {
		return err
	}
	v := make(plotter.Values, d)
	copy(v, rel)
	p := newPlot(title, "feature (numbered from 1)", ylabel)
	// Bars fill about 80% of each unit step of the x axis, whatever the
	// figure's width.
	w := vg.Points(math.Max(0.5, math.Min(30, 0.8*360/float64(d))))
	b, err := plotter.NewBarChart(v, w)
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	b.XMin = 1
	b.Color = colour(0)
	b.LineStyle.Width = 0
	p.Add(b)
	p.X.Min, p.X.Max = 0.5, float64(d)+0.5
	if d <= maxLabelledBars {
		ticks := make([]plot.Tick, d)
		for j := range ticks {
			ticks[j] = plot.Tick{Value: float64(j + 1), Label: strconv.Itoa(j + 1)}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	p.Y.Min = 0
	// Headroom above the tallest bar, so that it does not touch the frame.
	if top := slices.Max(rel); top > 0 {
		p.Y.Max = 1.05 * top
	}
	return save(p, path)
}
