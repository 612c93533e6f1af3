package passgpfast

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/ep"
)

// PredictChunk is the number of rows that Predict scores between two
// checks of its context (a fraction of a second of work), each block in
// one call of the model. PredictSource's batches of a multiple of it
// give Predict's predictions bit for bit.
const PredictChunk = 4096

// Predictions are a classifier's outputs at the rows of x (n rows, K
// binary classifiers).
type Predictions struct {
	// Prob (n×len(Outputs)) are the class probabilities: calibrated
	// where the classifier has a calibration, else the raw q's.
	Prob *mat.Dense
	// Decision is the index into Outputs of each row's most probable
	// class.
	Decision []int
	// Z (n×K) are the binary classifiers' raw latents z = m/√(1+v),
	// q(y=+1|x) = Φ(z) (paper eq. 4).
	Z *mat.Dense
	// CZ and CRho (n×K) are the calibration's inputs: the latents and
	// prior-variance shares, moved towards the prior's far from the
	// training data by the calibration's Gate (model.ProbTo). Near the
	// data CZ is Z.
	CZ, CRho *mat.Dense
}

// Predict predicts every row of x (inputs as in the training data; the
// classifier applies its scaling). It scores the rows in chunks and
// stops with ctx's error when ctx ends. A row whose scaled values would
// overflow is an error.
func (c *Classifier) Predict(ctx context.Context, x *mat.Dense) (*Predictions, error) {
	return c.predict(ctx, x, nil)
}

// PredictDataset is Predict on the rows of ds; errors name ds.Source.
func (c *Classifier) PredictDataset(ctx context.Context, ds *data.Dataset) (*Predictions, error) {
	return c.predict(ctx, ds.Dense(), ds)
}

// predict is Predict; ds, when not nil, is x as a data set.
func (c *Classifier) predict(ctx context.Context, x *mat.Dense, ds *data.Dataset) (*Predictions, error) {
	n, _ := x.Dims()
	if n == 0 {
		return nil, errNoRows
	}
	if err := checkCols(c, x); err != nil {
		return nil, err
	}
	if s := c.m.Scaling; s != nil {
		if ds == nil {
			ds = view(x)
		}
		if err := s.Check(ds); err != nil {
			return nil, err
		}
	}
	return c.predictRows(ctx, x)
}

// predictRows is predict on rows x (at least one, of D features) whose
// scaled values are known to be finite.
func (c *Classifier) predictRows(ctx context.Context, x *mat.Dense) (*Predictions, error) {
	n, d := x.Dims()
	m := c.m
	nb := len(m.Binaries)
	z, rho := mat.NewDense(n, nb, nil), mat.NewDense(n, nb, nil)
	var near *mat.Dense // correlations, only for a calibration that gates
	if m.Calibration != nil && m.Calibration.Gated() {
		near = mat.NewDense(n, nb, nil)
	}
	for lo := 0; lo < n; lo += PredictChunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+PredictChunk, n)
		xs := x.Slice(lo, hi, 0, d).(*mat.Dense)
		var nc *mat.Dense
		if near != nil {
			nc = near.Slice(lo, hi, 0, nb).(*mat.Dense)
		}
		zc, rc := z.Slice(lo, hi, 0, nb).(*mat.Dense), rho.Slice(lo, hi, 0, nb).(*mat.Dense)
		if c.serving {
			m.LatentShareNearSerialTo(zc, rc, nc, xs)
			continue
		}
		inTurn(func() { m.LatentShareNearTo(zc, rc, nc, xs) })
	}
	p := &Predictions{Z: z, CZ: z, CRho: rho, Decision: make([]int, n)}
	if near != nil {
		p.CZ, p.CRho = m.Calibration.Gate(z, rho, near)
	}
	p.Prob = mat.NewDense(n, len(m.Outputs()), nil)
	m.ProbFromLatent(p.Prob, p.CZ, p.CRho)
	m.DecideFromLatent(p.Decision, p.CZ, p.CRho)
	return p, nil
}

// view returns x as a data set (sharing its memory where it is
// contiguous).
func view(x *mat.Dense) *data.Dataset {
	raw := x.RawMatrix()
	ds := &data.Dataset{N: raw.Rows, D: raw.Cols}
	if raw.Stride == raw.Cols {
		ds.X = raw.Data[:raw.Rows*raw.Cols]
		return ds
	}
	ds.X = make([]float64, raw.Rows*raw.Cols)
	for i := range raw.Rows {
		copy(ds.X[i*raw.Cols:(i+1)*raw.Cols], x.RawRowView(i))
	}
	return ds
}

// PredictProbaTo sets dst (n×len(Outputs)) to the class probabilities of
// the rows of x: Predict's, calibrated where the classifier has a
// calibration. It panics if dst has the wrong shape.
func (c *Classifier) PredictProbaTo(ctx context.Context, dst, x *mat.Dense) error {
	p, err := c.Predict(ctx, x)
	if err != nil {
		return err
	}
	if r, k := dst.Dims(); r != len(p.Decision) || k != len(c.Outputs()) {
		panic("passgpfast: PredictProbaTo: destination has the wrong shape")
	}
	dst.Copy(p.Prob)
	return nil
}

// DecideTo sets dst[i] to the index into Outputs of the most probable
// class of row i of x.
func (c *Classifier) DecideTo(ctx context.Context, dst []int, x *mat.Dense) error {
	p, err := c.Predict(ctx, x)
	if err != nil {
		return err
	}
	copy(dst, p.Decision)
	return nil
}

// RawTo sets dst (n×K) to the paper's raw q(y=+1|x) of each binary
// classifier (eq. 4), uncalibrated.
func (c *Classifier) RawTo(dst, x *mat.Dense) {
	if c.serving {
		c.m.LatentShareNearSerialTo(dst, nil, nil, x)
		dst.Apply(func(_, _ int, z float64) float64 { return ep.Phi(z) }, dst)
		return
	}
	inTurn(func() { c.m.RawTo(dst, x) })
}

// LatentMeanVarTo sets mean and variance (n×K, either may be nil) to the
// predictive latent mean and variance of each binary classifier at the
// rows of x (paper eq. 4; x as in the training data, the classifier
// applies its scaling).
func (c *Classifier) LatentMeanVarTo(mean, variance, x *mat.Dense) {
	n, _ := x.Dims()
	xs := x
	if s := c.m.Scaling; s != nil {
		xs = mat.NewDense(n, c.D(), nil)
		s.ApplyTo(xs, x)
	}
	mu, v := make([]float64, n), make([]float64, n)
	for k, b := range c.m.Binaries {
		if c.serving {
			b.PredictMeanVarSerialTo(mu, v, xs)
		} else {
			inTurn(func() { b.PredictMeanVarTo(mu, v, xs) })
		}
		if mean != nil {
			setCol(mean, k, mu)
		}
		if variance != nil {
			setCol(variance, k, v)
		}
	}
}

// setCol sets column j of m to v: mat.Dense.SetCol's values, without its
// BLAS copy, so that a serving view's calls make no BLAS call.
func setCol(m *mat.Dense, j int, v []float64) {
	raw := m.RawMatrix()
	for i, x := range v[:raw.Rows] {
		raw.Data[i*raw.Stride+j] = x
	}
}
