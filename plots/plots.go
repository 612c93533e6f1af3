package plots

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Size of every figure.
var (
	Width  = 6 * vg.Inch
	Height = 4 * vg.Inch
)

// palette is a colour-blind friendly set (Okabe & Ito).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // green
	color.RGBA{204, 121, 167, 255}, // purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{240, 228, 66, 255},  // yellow
}

func colour(i int) color.Color { return palette[i%len(palette)] }

func finite(name string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("plots: %s[%d] = %v is not finite", name, i, x)
		}
	}
	return nil
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	return p
}

func save(p *plot.Plot, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := p.Save(Width, Height, path); err != nil {
		return fmt.Errorf("plots: writing %s: %w", path, err)
	}
	return nil
}

// PerClass writes two bar panels side by side to path: the test error of
// each binary classifier (in percent) and its active set size. classes
// names the bars; errRate is a fraction in [0,1].
func PerClass(path string, classes []string, errRate []float64, active []int) error {
	n := len(classes)
	if n == 0 || len(errRate) != n || len(active) != n {
		return fmt.Errorf("plots: PerClass needs equal non-empty lengths, got %d classes, %d errors, %d sizes", n, len(errRate), len(active))
	}
	if err := finite("errRate", errRate); err != nil {
		return err
	}
	ev := make(plotter.Values, n)
	av := make(plotter.Values, n)
	for i := range classes {
		ev[i] = 100 * errRate[i]
		av[i] = float64(active[i])
	}
	w := vg.Points(math.Max(4, math.Min(30, 220/float64(n))))
	pe := newPlot("Test error per class", "class (one vs rest)", "error (%)")
	be, err := plotter.NewBarChart(ev, w)
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	be.Color = colour(0)
	be.LineStyle.Width = 0
	pe.Add(be)
	pe.NominalX(classes...)
	pe.Y.Min = 0

	pa := newPlot("Active set size per class", "class (one vs rest)", "|A|")
	ba, err := plotter.NewBarChart(av, w)
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	ba.Color = colour(1)
	ba.LineStyle.Width = 0
	pa.Add(ba)
	pa.NominalX(classes...)
	pa.Y.Min = 0
	return saveTiles(path, 2*Width, Height, [][]*plot.Plot{{pe, pa}})
}

func saveTiles(path string, w, h vg.Length, plots [][]*plot.Plot) error {
	img := vgimg.New(w, h)
	dc := draw.New(img)
	t := draw.Tiles{Rows: len(plots), Cols: len(plots[0]), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	cs := plot.Align(plots, t, dc)
	for i := range plots {
		for j := range plots[i] {
			if plots[i][j] != nil {
				plots[i][j].Draw(cs[i][j])
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("plots: writing %s: %w", path, err)
	}
	return f.Close()
}

// Series is one named curve.
type Series struct {
	Name string
	X, Y []float64
	// Points draws markers only (a scatter), without connecting lines.
	Points bool
}

func (s Series) check() error {
	if len(s.X) != len(s.Y) || len(s.X) == 0 {
		return fmt.Errorf("plots: series %q has %d x and %d y values", s.Name, len(s.X), len(s.Y))
	}
	if err := finite(s.Name+".X", s.X); err != nil {
		return err
	}
	return finite(s.Name+".Y", s.Y)
}

// Lines writes a line plot with points of one or more series (for example
// test error in percent against active set size, or against p_inc).
func Lines(path, title, xlabel, ylabel string, series ...Series) error {
	if len(series) == 0 {
		return fmt.Errorf("plots: Lines needs at least one series")
	}
	p := newPlot(title, xlabel, ylabel)
	rising := 0
	for i, s := range series {
		if err := s.check(); err != nil {
			return err
		}
		xy := make(plotter.XYs, len(s.X))
		for k := range s.X {
			xy[k] = plotter.XY{X: s.X[k], Y: s.Y[k]}
		}
		if s.Y[len(s.Y)-1] > s.Y[0] {
			rising++
		}
		pts, err := plotter.NewScatter(xy)
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		pts.Color = colour(i)
		pts.Shape = draw.CircleGlyph{}
		pts.Radius = vg.Points(2.5)
		thumbs := []plot.Thumbnailer{pts}
		if !s.Points {
			l, err := plotter.NewLine(xy)
			if err != nil {
				return fmt.Errorf("plots: %w", err)
			}
			l.Color = colour(i)
			l.Width = vg.Points(1.5)
			p.Add(l)
			thumbs = append(thumbs, l)
		}
		p.Add(pts)
		if s.Name != "" && len(series) > 1 {
			p.Legend.Add(s.Name, thumbs...)
		}
	}
	// Put the legend where rising (or falling) curves leave room.
	p.Legend.Top = 2*rising < len(series)
	return save(p, path)
}

// Densities writes the paper's Figure 5: the densities (normalised
// histograms on [0,1]) of the predictive probability assigned to the
// predicted class, for correct and for incorrect test predictions.
func Densities(path string, correct, incorrect []float64, bins int) error {
	if bins <= 0 {
		bins = 25
	}
	if len(correct)+len(incorrect) == 0 {
		return fmt.Errorf("plots: Densities needs at least one probability")
	}
	for _, v := range [][]float64{correct, incorrect} {
		for i, x := range v {
			if !(x >= 0 && x <= 1) {
				return fmt.Errorf("plots: probability %d is %v, not in [0,1]", i, x)
			}
		}
	}
	p := newPlot("Predictive probability of the predicted class", "q(y*|x*)", "density")
	for i, set := range []struct {
		name string
		v    []float64
	}{{"correct", correct}, {"incorrect", incorrect}} {
		if len(set.v) == 0 {
			continue
		}
		xy := stepDensity(set.v, bins)
		l, err := plotter.NewLine(xy)
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		l.Color = colour(i)
		l.Width = vg.Points(1.5)
		c := color.NRGBAModel.Convert(colour(i)).(color.NRGBA)
		c.A = 70
		l.FillColor = c
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (n=%d)", set.name, len(set.v)), l)
	}
	p.X.Min, p.X.Max = 0, 1
	p.Y.Min = 0
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs = vg.Points(10)
	p.Legend.YOffs = -vg.Points(6)
	return save(p, path)
}

// stepDensity returns the outline of a normalised histogram of v on [0,1].
func stepDensity(v []float64, bins int) plotter.XYs {
	counts := make([]float64, bins)
	for _, x := range v {
		b := int(x * float64(bins))
		if b >= bins {
			b = bins - 1
		}
		counts[b]++
	}
	w := 1 / float64(bins)
	xy := make(plotter.XYs, 0, 2*bins+2)
	xy = append(xy, plotter.XY{X: 0, Y: 0})
	for b, c := range counts {
		d := c / (float64(len(v)) * w)
		xy = append(xy, plotter.XY{X: float64(b) * w, Y: d}, plotter.XY{X: float64(b+1) * w, Y: d})
	}
	return append(xy, plotter.XY{X: 1, Y: 0})
}

// Reliability writes a reliability (calibration) diagram: test points are
// binned by predicted probability prob of the event, and each bin's mean
// predicted probability is plotted against the observed frequency of
// outcome; a calibrated model lies on the diagonal. Point labels give the
// number of points per bin.
func Reliability(path string, prob []float64, outcome []bool, bins int) error {
	if len(prob) == 0 || len(prob) != len(outcome) {
		return fmt.Errorf("plots: Reliability needs equal non-empty lengths, got %d and %d", len(prob), len(outcome))
	}
	if bins <= 0 {
		bins = 10
	}
	sumP := make([]float64, bins)
	hits := make([]float64, bins)
	cnt := make([]float64, bins)
	for i, x := range prob {
		if !(x >= 0 && x <= 1) {
			return fmt.Errorf("plots: probability %d is %v, not in [0,1]", i, x)
		}
		b := int(x * float64(bins))
		if b >= bins {
			b = bins - 1
		}
		sumP[b] += x
		cnt[b]++
		if outcome[i] {
			hits[b]++
		}
	}
	var xy plotter.XYs
	var labels []string
	for b := range cnt {
		if cnt[b] == 0 {
			continue
		}
		xy = append(xy, plotter.XY{X: sumP[b] / cnt[b], Y: hits[b] / cnt[b]})
		labels = append(labels, fmt.Sprintf("%d", int(cnt[b])))
	}
	p := newPlot("Reliability diagram", "mean predicted probability", "observed frequency")
	diag, err := diagonal()
	if err != nil {
		return err
	}
	l, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	l.Color, pts.Color = colour(0), colour(0)
	l.Width = vg.Points(1.5)
	pts.Shape = draw.CircleGlyph{}
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: labels})
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	for i := range lab.TextStyle {
		lab.TextStyle[i].Font.Size = vg.Points(7)
		lab.Offset = vg.Point{X: vg.Points(4), Y: vg.Points(-10)}
	}
	p.Add(diag, l, pts, lab)
	p.Legend.Add("perfect calibration", diag)
	p.Legend.Add("model (labels: points per bin)", l, pts)
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs = vg.Points(10)
	p.Legend.YOffs = -vg.Points(6)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	return save(p, path)
}

// ReliabilitySeries is one model's predictions for Reliabilities: the
// probability it gave its predicted class (Conf) and whether that class was
// right.
type ReliabilitySeries struct {
	Name    string
	Conf    []float64
	Correct []bool
}

// Reliabilities writes a reliability diagram of top-label confidence for
// several series on the same axes (for example raw and calibrated
// probabilities): each series' points are binned by confidence into bins
// equal-width bins, and each non-empty bin's mean confidence is plotted
// against its accuracy.
func Reliabilities(path string, bins int, series ...ReliabilitySeries) error {
	if bins <= 0 {
		bins = 15
	}
	p := newPlot("Reliability of the predicted class", "confidence (probability of the predicted class)", "accuracy")
	diag, err := diagonal()
	if err != nil {
		return err
	}
	p.Add(diag)
	p.Legend.Add("perfect calibration", diag)
	for k, s := range series {
		if len(s.Conf) == 0 || len(s.Conf) != len(s.Correct) {
			return fmt.Errorf("plots: Reliabilities: series %q has %d confidences and %d outcomes", s.Name, len(s.Conf), len(s.Correct))
		}
		sum, hit, cnt := make([]float64, bins), make([]float64, bins), make([]float64, bins)
		for i, c := range s.Conf {
			if !(c >= 0 && c <= 1) {
				return fmt.Errorf("plots: Reliabilities: series %q confidence %d is %v", s.Name, i, c)
			}
			b := min(int(c*float64(bins)), bins-1)
			sum[b] += c
			cnt[b]++
			if s.Correct[i] {
				hit[b]++
			}
		}
		var xy plotter.XYs
		for b := range cnt {
			if cnt[b] > 0 {
				xy = append(xy, plotter.XY{X: sum[b] / cnt[b], Y: hit[b] / cnt[b]})
			}
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		l.Color, pts.Color = colour(k), colour(k)
		l.Width = vg.Points(1.5)
		pts.Shape = draw.CircleGlyph{}
		p.Add(l, pts)
		p.Legend.Add(s.Name, l, pts)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs = vg.Points(10)
	p.Legend.YOffs = -vg.Points(6)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	return save(p, path)
}

// diagonal returns the dashed grey line of perfect calibration.
func diagonal() (*plotter.Line, error) {
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	diag.Color = color.Gray{Y: 120}
	return diag, nil
}
