package main

// Figures drawn directly with gonum/plot (the paper's Figures 4-7 need
// series shapes that are specific to this reproduction).

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one line of a figure; Err (optional) are ± error bars.
type Series struct {
	Name    string
	X, Y    []float64
	Err     []float64
	Dashed  bool
	NoPoint bool
}

// Fig describes a line figure.
type Fig struct {
	Title, XLabel, YLabel string
	Series                []Series
	HLines                []HLine
	LogX, LogY            bool
	W, H                  vg.Length
}

// HLine is a horizontal reference line (e.g. the full GPC's error).
type HLine struct {
	Name string
	Y    float64
}

func (fg *Fig) plot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fg.Title
	p.X.Label.Text = fg.XLabel
	p.Y.Label.Text = fg.YLabel
	p.Legend.Top = true
	if fg.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if fg.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Add(plotter.NewGrid())
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for i, s := range fg.Series {
		var pts plotter.XYs
		var errs plotter.YErrors
		for j := range s.X {
			if math.IsNaN(s.Y[j]) || math.IsNaN(s.X[j]) || (fg.LogY && s.Y[j] <= 0) || (fg.LogX && s.X[j] <= 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: s.X[j], Y: s.Y[j]})
			e := 0.0
			if s.Err != nil && !math.IsNaN(s.Err[j]) {
				e = s.Err[j]
			}
			errs = append(errs, struct{ Low, High float64 }{e, e})
			xmin, xmax = math.Min(xmin, s.X[j]), math.Max(xmax, s.X[j])
			ymin, ymax = math.Min(ymin, s.Y[j]), math.Max(ymax, s.Y[j])
		}
		if len(pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.5)
		if s.Dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l)
		var thumb plot.Thumbnailer = l
		if !s.NoPoint {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, err
			}
			sc.Color = plotutil.Color(i)
			sc.Shape = plotutil.Shape(i)
			p.Add(sc)
			thumb = lineScatterThumb{l, sc}
		}
		if s.Err != nil {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{pts, errs})
			if err == nil {
				eb.Color = plotutil.Color(i)
				p.Add(eb)
			}
		}
		p.Legend.Add(s.Name, thumb)
	}
	if math.IsInf(xmin, 0) {
		return nil, fmt.Errorf("figure %q has no data points", fg.Title)
	}
	// Log axes get explicit ranges: gonum pads a degenerate range into
	// non-positive values and panics.
	if fg.LogX {
		p.X.Min, p.X.Max = xmin/1.25, xmax*1.25
	}
	if fg.LogY {
		for _, h := range fg.HLines {
			if h.Y > 0 {
				ymin, ymax = math.Min(ymin, h.Y), math.Max(ymax, h.Y)
			}
		}
		p.Y.Min, p.Y.Max = ymin/1.25, ymax*1.25
	}
	for k, h := range fg.HLines {
		if math.IsNaN(h.Y) || math.IsInf(xmin, 0) {
			continue
		}
		l, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: h.Y}, {X: xmax, Y: h.Y}})
		if err != nil {
			return nil, err
		}
		l.Color = color.Gray{Y: uint8(60 + 40*k)}
		l.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
		p.Add(l)
		p.Legend.Add(h.Name, l)
	}
	return p, nil
}

type lineScatterThumb struct {
	l  *plotter.Line
	sc *plotter.Scatter
}

func (t lineScatterThumb) Thumbnail(c *draw.Canvas) { t.l.Thumbnail(c); t.sc.Thumbnail(c) }

// Save writes the figure as PNG. A panic inside gonum/plot (for example a
// degenerate log-scale range) is returned as an error: a figure must never
// cost the run its tables.
func (fg *Fig) Save(path string) (err error) {
	defer recoverPlot(&err)
	p, err := fg.plot()
	if err != nil {
		return err
	}
	w, h := fg.W, fg.H
	if w == 0 {
		w, h = 6*vg.Inch, 4*vg.Inch
	}
	return p.Save(w, h, path)
}

// barFig draws grouped bars: one group per category, one bar per series.
func barFig(path, title, ylabel string, cats []string, names []string, vals [][]float64) (err error) {
	defer recoverPlot(&err)
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	k := len(names)
	w := vg.Points(math.Max(4, 60/float64(k)))
	for i := range names {
		v := make(plotter.Values, len(cats))
		for j := range cats {
			if j < len(vals[i]) && !math.IsNaN(vals[i][j]) {
				v[j] = vals[i][j]
			}
		}
		b, err := plotter.NewBarChart(v, w)
		if err != nil {
			return err
		}
		b.Color = plotutil.Color(i)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(i)-float64(k-1)/2)
		p.Add(b)
		p.Legend.Add(names[i], b)
	}
	p.NominalX(cats...)
	return p.Save(7*vg.Inch, 4*vg.Inch, path)
}

// logDensity returns a histogram density estimate of xs on [0, 1] with
// the given number of bins: bin centres and densities (integrating to 1).
func logDensity(xs []float64, bins int) (centers, dens []float64) {
	centers = make([]float64, bins)
	dens = make([]float64, bins)
	for i := range centers {
		centers[i] = (float64(i) + 0.5) / float64(bins)
	}
	n := 0
	for _, x := range xs {
		if math.IsNaN(x) {
			continue
		}
		b := int(x * float64(bins))
		if b >= bins {
			b = bins - 1
		}
		if b < 0 {
			b = 0
		}
		dens[b]++
		n++
	}
	if n == 0 {
		return centers, dens
	}
	for i := range dens {
		dens[i] *= float64(bins) / float64(n)
	}
	return centers, dens
}

func figName(prefix string, parts ...any) string {
	s := prefix
	for _, p := range parts {
		s += fmt.Sprint("-", p)
	}
	return s + ".png"
}

func recoverPlot(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("plot: %v", r)
	}
}
