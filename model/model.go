package model

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// Model is a trained classifier as stored in a model file.
type Model struct {
	Mode    Mode
	Classes []float64 // see Mode for their meaning; ascending
	// Binaries are the binary classifiers: one per class for OneVsRest,
	// one otherwise.
	Binaries []*passgp.Binary
	// Options is the JSON object of the training options (informational;
	// prediction does not need it).
	Options json.RawMessage
	// History holds the per-batch training record of each classifier and
	// Elapsed its training time (both may be empty).
	History [][]Batch
	Elapsed []time.Duration
	// Calibration maps the classifiers' latents to class probabilities
	// (calib.Calibration; K = 1 for Binary and PositiveVsRest models).
	// nil for models saved without one, such as every format version 1
	// file: ProbTo then gives the raw probabilities, as version 1 did.
	Calibration *calib.Calibration
	// Scaling is the per-feature map that the training inputs went
	// through before training (train --scale), or nil. The prediction
	// methods take inputs as in the training file and apply it
	// themselves; data.Scaling.Check tells beforehand whether a data
	// set's scaled values stay finite. nil in files before format
	// version 7.
	Scaling *data.Scaling
	// FormatVersion is the format version of the file the model was
	// loaded from (0 for a model made in memory).
	FormatVersion int
}

// D returns the input dimension the model expects.
func (m *Model) D() int {
	_, d := m.Binaries[0].X.Dims()
	return d
}

// Outputs names the probability columns that ProbTo fills: the class
// labels for Binary and OneVsRest, and [positive, "rest"] for
// PositiveVsRest.
func (m *Model) Outputs() []string {
	if m.Mode == PositiveVsRest {
		return []string{FormatLabel(m.Classes[0]), "rest"}
	}
	s := make([]string, len(m.Classes))
	for i, c := range m.Classes {
		s[i] = FormatLabel(c)
	}
	return s
}

// FormatLabel writes a class label as the shortest decimal.
func FormatLabel(c float64) string { return fmt.Sprintf("%v", c) }

// RawTo sets dst[i][k] (n×len(Binaries)) to q(y=+1|x_i) of binary
// classifier k (paper eq. 4).
func (m *Model) RawTo(dst, x *mat.Dense) {
	m.LatentTo(dst, x)
	dst.Apply(func(_, _ int, z float64) float64 { return ep.Phi(z) }, dst)
}

// LatentTo sets dst[i][k] (n×len(Binaries)) to z = m/√(1+v) of binary
// classifier k at row i of x: q(y=+1|x_i) = Φ(z) (paper eq. 4).
func (m *Model) LatentTo(dst, x *mat.Dense) {
	m.LatentShareTo(dst, nil, x)
}

// LatentShareTo is LatentTo that also sets rho[i][k] (when rho is not
// nil; same shape) to the share of classifier k's prior variance that its
// posterior leaves at row i of x (passgp.Binary.LatentShareTo): what the
// calibration needs besides z to fall back to the class balance far from
// the training data (ProbFromLatent), with LatentShareNearTo's
// correlations.
func (m *Model) LatentShareTo(dst, rho, x *mat.Dense) {
	m.LatentShareNearTo(dst, rho, nil, x)
}

// LatentShareNearTo is LatentShareTo that also sets near[i][k] (when near
// is not nil; same shape) to the largest correlation of row i of x with
// an active input of classifier k (nearTo): 1 on
// an active input, near 0 far from all of them. The calibration's Gate
// turns the latents and shares with these into its inputs, as ProbTo
// does, so that far from the training data the calibrated probabilities
// are the class balance.
func (m *Model) LatentShareNearTo(dst, rho, near, x *mat.Dense) {
	m.latentShareNear(false, dst, rho, near, x)
}

// LatentShareNearSerialTo is LatentShareNearTo computed on the calling
// goroutine alone with no BLAS call (passgp.Binary.LatentShareSerialTo):
// for a service predicting from many goroutines at once, one core each.
// Its results depend only on m, x and the SIMD path, and agree with
// LatentShareNearTo's within rounding.
func (m *Model) LatentShareNearSerialTo(dst, rho, near, x *mat.Dense) {
	m.latentShareNear(true, dst, rho, near, x)
}

// latentShareNear is LatentShareNearTo; serial selects the binaries'
// serial prediction.
func (m *Model) latentShareNear(serial bool, dst, rho, near, x *mat.Dense) {
	n, _ := x.Dims()
	if r, c := dst.Dims(); r != n || c != len(m.Binaries) {
		panic("model: LatentShareTo: destination has the wrong shape")
	}
	var share, cor []float64
	if rho != nil {
		if r, c := rho.Dims(); r != n || c != len(m.Binaries) {
			panic("model: LatentShareTo: rho has the wrong shape")
		}
		share = make([]float64, n)
	}
	if near != nil {
		if r, c := near.Dims(); r != n || c != len(m.Binaries) {
			panic("model: LatentShareNearTo: near has the wrong shape")
		}
		cor = make([]float64, n)
	}
	x = m.scaled(x)
	z := make([]float64, n)
	for k, b := range m.Binaries {
		if serial {
			b.LatentShareSerialTo(z, share, x)
		} else {
			b.LatentShareTo(z, share, x)
		}
		if near != nil {
			nearTo(b, cor, x)
		}
		setCol(dst, k, z)
		if rho != nil {
			setCol(rho, k, share)
		}
		if near != nil {
			setCol(near, k, cor)
		}
	}
}

// setCol sets column j of m to v: mat.Dense.SetCol's values, without
// its BLAS copy, so that the serial prediction makes no BLAS call.
func setCol(m *mat.Dense, j int, v []float64) {
	raw := m.RawMatrix()
	for i, x := range v[:raw.Rows] {
		raw.Data[i*raw.Stride+j] = x
	}
}

// scaled returns x in the units the classifiers were trained in (Scaling).
func (m *Model) scaled(x *mat.Dense) *mat.Dense {
	if m.Scaling == nil {
		return x
	}
	n, _ := x.Dims()
	xs := mat.NewDense(n, m.D(), nil)
	m.Scaling.ApplyTo(xs, x)
	return xs
}

// RawProbFromLatent is ProbFromRaw from the latents of LatentTo: the
// paper's q (normalised over the classes for one-vs-rest), uncalibrated.
// The probabilities of both sides of a binary classifier are computed
// directly, Φ(z) and Φ(−z), so neither loses precision as 1 − q would.
func (m *Model) RawProbFromLatent(dst, z *mat.Dense) {
	n, _ := z.Dims()
	if r, c := dst.Dims(); r != n || c != len(m.Outputs()) {
		panic("model: RawProbFromLatent: destination has the wrong shape")
	}
	switch m.Mode {
	case Binary, PositiveVsRest:
		pos, neg := 1, 0
		if m.Mode == PositiveVsRest {
			pos, neg = 0, 1
		}
		for i := 0; i < n; i++ {
			v := z.At(i, 0)
			dst.Set(i, pos, ep.Phi(v))
			dst.Set(i, neg, ep.Phi(-v))
		}
	default:
		q := mat.NewDense(n, len(m.Binaries), nil)
		q.Apply(func(_, _ int, v float64) float64 { return ep.Phi(v) }, z)
		m.ProbFromRaw(dst, q)
	}
}

// DecideFromLatent sets dst[i] to the index (into Outputs) of the class of
// largest probability for row i of the latents z and prior-variance shares
// rho (from LatentShareNearTo, moved by the calibration's Gate as ProbTo
// does; nil rho: 0): the calibrated probability when the model has a
// Calibration, else RawDecideFromLatent's.
func (m *Model) DecideFromLatent(dst []int, z, rho *mat.Dense) {
	c := m.Calibration
	if c == nil {
		m.RawDecideFromLatent(dst, z)
		return
	}
	c.DecideTo(dst, z, rho)
	if m.Mode == PositiveVsRest {
		n, _ := z.Dims()
		for i := range dst[:n] {
			dst[i] = 1 - dst[i] // outputs are [positive, rest]
		}
	}
}

// RawDecideFromLatent decides from the raw latents: z > 0 is the positive
// class for Binary and PositiveVsRest models, and a one-vs-rest model takes
// the classifier of largest z (passgp.MultiClass's decision, which does not
// tie where Φ(z) rounds to 1).
func (m *Model) RawDecideFromLatent(dst []int, z *mat.Dense) {
	n, _ := z.Dims()
	for i := 0; i < n; i++ {
		row := z.RawRowView(i)
		switch m.Mode {
		case Binary:
			dst[i] = 0
			if row[0] > 0 {
				dst[i] = 1
			}
		case PositiveVsRest:
			dst[i] = 1
			if row[0] > 0 {
				dst[i] = 0
			}
		default:
			dst[i] = passgp.ArgmaxLatent(row)
		}
	}
}

// ProbTo sets row i of dst (n×len(Outputs())) to the class probabilities of
// row i of x: ProbFromLatent applied to LatentShareTo (calibrated when
// the model has a Calibration, whose Gate moves the rows far from the
// training data with LatentShareNearTo's correlations).
func (m *Model) ProbTo(dst, x *mat.Dense) {
	n, _ := x.Dims()
	z := mat.NewDense(n, len(m.Binaries), nil)
	rho := mat.NewDense(n, len(m.Binaries), nil)
	if m.Calibration == nil || !m.Calibration.Gated() {
		m.LatentShareTo(z, rho, x)
	} else {
		near := mat.NewDense(n, len(m.Binaries), nil)
		m.LatentShareNearTo(z, rho, near, x)
		z, rho = m.Calibration.Gate(z, rho, near)
	}
	m.ProbFromLatent(dst, z, rho)
}

// ProbFromLatent sets dst to the class probabilities of the latents z and
// prior-variance shares rho (from LatentShareNearTo, moved by the
// calibration's Gate as ProbTo does; nil rho: 0, the map near the
// training data): the calibrated ones when the model has a Calibration,
// else RawProbFromLatent's (which use z alone).
func (m *Model) ProbFromLatent(dst, z, rho *mat.Dense) {
	c := m.Calibration
	if c == nil {
		m.RawProbFromLatent(dst, z)
		return
	}
	c.ProbTo(dst, z, rho)
	if m.Mode == PositiveVsRest {
		// Calibration gives [p(−), p(+)]; the outputs are [positive, rest].
		n, _ := dst.Dims()
		for i := 0; i < n; i++ {
			r := dst.RawRowView(i)
			r[0], r[1] = r[1], r[0]
		}
	}
}

// ProbFromRaw turns the binary classifiers' outputs raw (from RawTo) into
// class probabilities. Binary and PositiveVsRest give q(y=+1|x) and its
// complement. OneVsRest gives each class's q(y=+1|x) normalised to sum to
// one over the classes; the argmax, the paper's one-against-the-rest
// decision, is unchanged by the normalisation.
func (m *Model) ProbFromRaw(dst, raw *mat.Dense) {
	n, _ := raw.Dims()
	if r, c := dst.Dims(); r != n || c != len(m.Outputs()) {
		panic("model: ProbFromRaw: destination has the wrong shape")
	}
	switch m.Mode {
	case Binary:
		for i := 0; i < n; i++ {
			p := raw.At(i, 0)
			dst.Set(i, 0, 1-p)
			dst.Set(i, 1, p)
		}
	case PositiveVsRest:
		for i := 0; i < n; i++ {
			p := raw.At(i, 0)
			dst.Set(i, 0, p)
			dst.Set(i, 1, 1-p)
		}
	default:
		for i := 0; i < n; i++ {
			row := dst.RawRowView(i)
			copy(row, raw.RawRowView(i))
			s := floats.Sum(row)
			for k := range row {
				if s > 0 {
					row[k] /= s
				} else {
					row[k] = 1 / float64(len(row))
				}
			}
		}
	}
}

// FromBinary returns the plain stored form of a trained classifier.
func FromBinary(b *passgp.Binary) Classifier {
	n, d := b.X.Dims()
	c := Classifier{
		Kernel: b.Kernel.Name(),
		Theta:  b.Kernel.Params(),
		D:      d,
		X:      make([]float64, 0, n*d),
		Y:      append([]float64(nil), b.Y...),
		Active: append([]int(nil), b.Active...),
		Tau:    append([]float64(nil), b.Post.Sites.Tau...),
		Nu:     append([]float64(nil), b.Post.Sites.Nu...),
	}
	if p, ok := b.Kernel.(kernel.Poly); ok {
		c.Degree, c.Gamma = p.Degree, p.Gamma
	}
	if f := b.Sparse; f != nil {
		c.Beta = append([]float64(nil), f.Beta...)
		c.FactorP = append([]float64(nil), f.FactorP...)
		c.Inducing = slices.Clone(b.Inducing)
	}
	for i := 0; i < n; i++ {
		c.X = append(c.X, b.X.RawRowView(i)...)
	}
	if c.Active == nil {
		c.Active = make([]int, n)
		for i := range c.Active {
			c.Active[i] = -1
		}
	}
	return c
}

// Build rebuilds the classifier: the kernel with kernel.New and the EP
// posterior with ep.FromSites, exactly as training built it, so that
// predictions are bit-identical.
func (c *Classifier) Build() (*passgp.Binary, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	k, err := kernel.New(c.Kernel, c.Theta, c.Degree, c.Gamma)
	if err != nil {
		return nil, err
	}
	n := len(c.Y)
	x := mat.NewDense(n, c.D, append([]float64(nil), c.X...))
	y := append([]float64(nil), c.Y...)
	post, err := ep.FromSites(k, x, y, ep.Sites{Tau: append([]float64(nil), c.Tau...), Nu: append([]float64(nil), c.Nu...)})
	if err != nil {
		return nil, err
	}
	b := &passgp.Binary{Kernel: k, X: x, Y: y, Active: append([]int(nil), c.Active...), Post: post}
	if c.Beta != nil {
		xm := x
		if c.Inducing != nil {
			b.Inducing = slices.Clone(c.Inducing)
			xm = mat.NewDense(len(c.Inducing), c.D, nil)
			for r, i := range c.Inducing {
				xm.SetRow(r, x.RawRowView(i))
			}
		}
		if b.Sparse, err = ep.RestoreFITC(k, xm, append([]float64(nil), c.Beta...), append([]float64(nil), c.FactorP...)); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (m *Model) record() (*record, error) {
	if len(m.Binaries) == 0 {
		return nil, fmt.Errorf("model: no classifiers")
	}
	r := &record{Mode: m.Mode, Classes: m.Classes, Options: m.Options, Calibration: m.Calibration, Scaling: m.Scaling}
	if m.Scaling != nil && m.Binaries[0] != nil && m.Binaries[0].X != nil {
		if err := m.Scaling.Validate(m.D()); err != nil {
			return nil, fmt.Errorf("model: %v", err)
		}
	}
	for i, b := range m.Binaries {
		if b == nil || b.Post == nil || b.Kernel == nil || b.X == nil {
			return nil, fmt.Errorf("model: classifier %d is incomplete", i)
		}
		c := FromBinary(b)
		switch m.Mode {
		case OneVsRest:
			if i < len(m.Classes) {
				c.Class = m.Classes[i]
			}
		case Binary:
			if len(m.Classes) == 2 {
				c.Class = m.Classes[1]
			}
		case PositiveVsRest:
			if len(m.Classes) == 1 {
				c.Class = m.Classes[0]
			}
		}
		if i < len(m.History) {
			c.History = m.History[i]
		}
		if i < len(m.Elapsed) {
			c.Elapsed = m.Elapsed[i].Seconds()
		}
		r.Classifiers = append(r.Classifiers, c)
	}
	return r, nil
}

// Encode returns the complete file content (header, payload, checksum) of m.
// It validates m as Decode would.
func Encode(m *Model) ([]byte, error) {
	r, err := m.record()
	if err != nil {
		return nil, err
	}
	p := encodeRecord(r)
	// Validate by decoding the payload: a model that could not be loaded
	// must not be written.
	if _, err := decodeRecord(p, Version); err != nil {
		return nil, fmt.Errorf("model: refusing to write an invalid model: %w", err)
	}
	return frame(KindModel, p), nil
}

// DefaultMaxBytes bounds the memory that rebuilding a model's posteriors
// may take (16 GiB): see LoadOptions.
const DefaultMaxBytes = 16 << 30

// LoadOptions control Decode and Load. The zero value gives the defaults.
type LoadOptions struct {
	// MaxBytes bounds the memory of the rebuilt posteriors: a classifier
	// with |A| active points keeps an |A|×|A| Cholesky factor and needs a
	// second such matrix while it is built, so a model needs
	// 8·(Σ|A|² + max|A|²) bytes. A model file stores only |A|·(d+3)
	// values, so a small, well-formed file can claim terabytes; it is
	// refused before anything is allocated. 0 means DefaultMaxBytes.
	MaxBytes int64
}

// posteriorBytes returns the memory that building r's classifiers takes,
// saturating at math.MaxInt64.
func posteriorBytes(r *record) int64 {
	var sum, peak float64
	for i := range r.Classifiers {
		n := float64(len(r.Classifiers[i].Y))
		b := 8 * n * n
		if f := r.Classifiers[i].Beta; f != nil {
			m := float64(len(f))
			b += 8 * m * m // the FITC predictor's factor of K_MM
		}
		sum += b
		peak = math.Max(peak, b)
	}
	return int64(math.Min(sum+peak, math.MaxInt64))
}

// Decode parses the content of a model file and rebuilds every posterior.
// It returns an error wrapping ErrTruncated, ErrCorrupt, ErrMagic,
// ErrVersion, ErrKind or ErrPayload for bad input and never panics.
func Decode(b []byte) (*Model, error) { return DecodeWith(b, LoadOptions{}) }

// DecodeWith is Decode with options.
func DecodeWith(b []byte, o LoadOptions) (*Model, error) {
	p, err := unframe(b, KindModel)
	if err != nil {
		return nil, err
	}
	return decodeModelPayload(p, formatVersion(b), o)
}

func decodeModelPayload(p []byte, version uint32, o LoadOptions) (*Model, error) {
	r, err := decodeRecord(p, version)
	if err != nil {
		return nil, err
	}
	limit := o.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if need := posteriorBytes(r); need > limit {
		big := 0
		for i := range r.Classifiers {
			if len(r.Classifiers[i].Y) > len(r.Classifiers[big].Y) {
				big = i
			}
		}
		return nil, fmt.Errorf("%w: active sets: rebuilding the posteriors of %d classifier(s) (largest |A| = %d, classifier %d) needs %d MiB, more than the limit of %d MiB (LoadOptions.MaxBytes)",
			ErrPayload, len(r.Classifiers), len(r.Classifiers[big].Y), big, need>>20, limit>>20)
	}
	m := &Model{Mode: r.Mode, Classes: r.Classes, Options: r.Options, Calibration: r.Calibration, Scaling: r.Scaling, FormatVersion: int(version)}
	for i := range r.Classifiers {
		c := &r.Classifiers[i]
		b, err := c.Build()
		if err != nil {
			return nil, fmt.Errorf("%w: classifier %d: %v", ErrPayload, i, err)
		}
		m.Binaries = append(m.Binaries, b)
		m.History = append(m.History, c.History)
		m.Elapsed = append(m.Elapsed, time.Duration(c.Elapsed*float64(time.Second)))
	}
	return m, nil
}

// Save writes m to path atomically (see writeAtomic).
func Save(path string, m *Model) error {
	b, err := Encode(m)
	if err != nil {
		return err
	}
	if err := writeAtomic(path, b); err != nil {
		return fmt.Errorf("model: writing %s: %w", path, err)
	}
	return nil
}

// Load reads the model file at path. Errors name the file and the problem.
func Load(path string) (*Model, error) { return LoadWith(path, LoadOptions{}) }

// LoadWith is Load with options.
func LoadWith(path string, o LoadOptions) (*Model, error) {
	p, version, err := readFramed(path, KindModel)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	m, err := decodeModelPayload(p, version, o)
	if err != nil {
		return nil, fmt.Errorf("model: %s: %w", path, err)
	}
	return m, nil
}
