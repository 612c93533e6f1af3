package passgpfast

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// Plan is what a run trains, known before training starts.
type Plan struct {
	Mode        model.Mode
	Classes     []float64
	Classifiers int
	// Done is the number of classifiers a resumed run has finished.
	Done int
	// Config is the resolved configuration (scaling, budget).
	Config Config
	N, D   int
}

// Fit trains a classifier on the rows of x with labels y (two labels: a
// binary classifier, the larger one positive; more: one against the
// rest). x is not modified. With no options it trains as `passgp-fast
// train` does with no flags. Training stops with ctx's error when ctx
// ends (after writing the checkpoint of WithCheckpoint).
func Fit(ctx context.Context, x *mat.Dense, y []float64, opts ...Option) (*Classifier, error) {
	n, d := x.Dims()
	ds := &data.Dataset{N: n, D: d, X: make([]float64, n*d), Y: y}
	for i := range n {
		copy(ds.X[i*d:(i+1)*d], x.RawRowView(i))
	}
	return FitDataset(ctx, ds, append(opts, WithScaleInPlace())...)
}

// FitDataset is Fit on a data set; its image geometry serves the
// invariance stage (Config.Augment). Its inputs are not modified unless
// WithScaleInPlace is given.
func FitDataset(ctx context.Context, ds *data.Dataset, opts ...Option) (*Classifier, error) {
	s := newSettings(opts)
	if ds.Y == nil || len(ds.Y) != ds.N {
		return nil, fmt.Errorf("%s: want one label per row (%d rows, %d labels)", source(ds), ds.N, len(ds.Y))
	}
	cp, err := s.prepare(ds, lazyStats(ds))
	if err != nil {
		return nil, err
	}
	if cp.scaling != nil && !s.inPlace {
		c := *ds
		c.X = append([]float64(nil), ds.X...)
		ds = &c
	}
	if cp.scaling != nil {
		if err := cp.scaling.Apply(ds); err != nil {
			return nil, err
		}
	}
	return s.run(ctx, ds, cp, passgp.DenseRows(ds.Dense()))
}

func source(ds *data.Dataset) string {
	if ds.Source == "" {
		return "data"
	}
	return ds.Source
}

// prepared is a run's checkpoint (new or resumed), its configuration
// and the scaling fitted to its inputs.
type prepared struct {
	*model.Checkpoint
	cfg     Config
	scaling *data.Scaling
}

// prepare resolves the configuration on ds (from the checkpoint when
// resuming), whose inputs' statistics st gives, and returns the run's
// checkpoint. It reads ds's N, D, labels, name and image geometry, not its
// inputs, which may be on disk (FitBinary).
func (s *settings) prepare(ds *data.Dataset, st func() *data.Stats) (*prepared, error) {
	if s.maxClasses < 2 {
		return nil, configErr("WithMaxClasses: want at least 2, got %d", s.maxClasses)
	}
	p := &prepared{cfg: s.cfg, Checkpoint: s.resume}
	c := &p.cfg
	if p.Checkpoint != nil {
		*c = Config{}
		if err := json.Unmarshal(p.Options, c); err != nil {
			return nil, fmt.Errorf("checkpoint: training options: %v", err)
		}
		if err := p.CheckData(ds.N, ds.D, ds.Y); err != nil {
			return nil, fmt.Errorf("%s: checkpoint: %v", source(ds), err)
		}
	} else {
		var err error
		if c.Scale, err = resolveScale(c.Scale, st, c.Augment != ""); err != nil {
			return nil, err
		}
		if c.MaxActive == AutoMaxActive {
			c.MaxActive = passgp.SqrtBudget(ds.N)
		}
		c.Data, c.N, c.D = ds.Source, ds.N, ds.D
	}
	var err error
	if p.scaling, err = scalingFor(c.Scale, st); err != nil {
		return nil, err
	}
	if err := imageGeometry(c, ds); err != nil {
		return nil, err
	}
	if _, err := c.Options(ds.D); err != nil {
		return nil, err
	}
	if p.Checkpoint == nil {
		if p.Checkpoint, err = newCheckpoint(c, ds, s.maxClasses); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// scalingFor fits the resolved scaling mode to the data of statistics st
// without applying it.
func scalingFor(mode string, st func() *data.Stats) (*data.Scaling, error) {
	switch mode {
	case "":
		return nil, nil
	case "standard":
		return st().FitStandard(), nil
	case "minmax":
		return st().FitMinMax(-1, 1), nil
	}
	return nil, fmt.Errorf("unknown input scaling %q", mode)
}

// imageGeometry sets the image size of the invariance stage: given, the
// data set's, or square.
func imageGeometry(c *Config, ds *data.Dataset) error {
	if c.Augment == "" || c.ImageW != 0 {
		return nil
	}
	if ds.ImageW > 0 {
		c.ImageW, c.ImageH = ds.ImageW, ds.ImageH
	} else if s := int(math.Round(math.Sqrt(float64(ds.D)))); s*s == ds.D {
		c.ImageW, c.ImageH = s, s
	} else {
		return configErr("Config.Augment needs square images or an IDX file's geometry, got %d features", ds.D)
	}
	return nil
}

// newCheckpoint starts a run's checkpoint: its mode and classes from the
// labels, its configuration as JSON.
func newCheckpoint(c *Config, ds *data.Dataset, maxClasses int) (*model.Checkpoint, error) {
	cp := &model.Checkpoint{N: ds.N, D: ds.D}
	cl := ds.Classes()
	if err := passgp.CheckClasses(cl, maxClasses); err != nil {
		return nil, fmt.Errorf("%s: %v", source(ds), err)
	}
	switch {
	case len(cl) < 2:
		return nil, fmt.Errorf("%s: fewer than two classes (every label is %v)", source(ds), cl[0])
	case c.Positive != nil:
		if _, err := ds.BinaryLabels(c.Positive); err != nil {
			return nil, err
		}
		cp.Mode, cp.Classes = model.PositiveVsRest, []float64{*c.Positive}
	case len(cl) == 2:
		cp.Mode, cp.Classes = model.Binary, cl
	default:
		cp.Mode, cp.Classes = model.OneVsRest, cl
	}
	var err error
	cp.Options, err = json.Marshal(c)
	return cp, err
}
