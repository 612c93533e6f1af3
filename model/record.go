package model

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/data"
)

// Mode says how the binary classifiers of a model map to class labels.
type Mode uint32

const (
	// Binary: one classifier; Classes = [negative, positive] and the
	// classifier's q(y=+1|x) is the probability of Classes[1].
	Binary Mode = 1
	// OneVsRest: one classifier per class, in the order of Classes
	// (ascending); the prediction is the argmax of their q(y=+1|x).
	OneVsRest Mode = 2
	// PositiveVsRest: one classifier; Classes = [positive] and q(y=+1|x)
	// is the probability that the label is Classes[0] (any other label is
	// the negative class), as trained by `train --positive L`.
	PositiveVsRest Mode = 3
)

func (m Mode) String() string {
	switch m {
	case Binary:
		return "binary"
	case OneVsRest:
		return "one-vs-rest"
	case PositiveVsRest:
		return "positive-vs-rest"
	}
	return fmt.Sprintf("mode %d", uint32(m))
}

// Batch is the per-batch training record kept for plots and reports.
type Batch struct {
	Pass, Batch, Active, Included, Deleted int
	LogZ                                   float64
	// Noise and Skipped are per-batch counts that files of version 3
	// and later carry; training sets them to 0 (its selection deletes and
	// skips no point as mislabelled).
	Noise, Skipped int
}

// Classifier is one stored binary classifier in plain form: everything
// ep.FromSites needs to rebuild its posterior.
type Classifier struct {
	Kernel string    // "se", "se+lin", "se+bias", "seard", "seard+bias" or "poly"
	Theta  []float64 // hyperparameters in the paper's order (kernel.Kernel.Params)
	Degree int       // poly only
	Gamma  float64   // poly only; 0 means 1/d
	D      int       // input dimension
	X      []float64 // active inputs, row-major len(Y)×D
	Y      []float64 // active labels ±1
	Active []int     // training-set indices of the active points (-1 for augmented points)
	Tau    []float64 // EP site precisions
	Nu     []float64 // EP site natural means
	// Class is the label this classifier separates from the rest (its +1 class).
	Class   float64
	History []Batch
	// Elapsed is the training time in seconds.
	Elapsed float64
	// Beta and FactorP are the FITC posterior of passgp.TrainFITC
	// (ep.FITC's fields: length |A| and |A|², FactorP lower triangular);
	// nil without the pass and in files before version 5.
	Beta, FactorP []float64
	// Inducing holds the indices into the active points of the FITC
	// posterior's inducing inputs, ascending (passgp.Binary.Inducing;
	// version 10 and later); nil means all of them, and then Beta and
	// FactorP have lengths m and m² for m = len(Inducing).
	Inducing []int
}

// record is the decoded payload of a model file.
type record struct {
	Mode        Mode
	Classes     []float64
	Options     json.RawMessage
	Classifiers []Classifier
	// Calibration is nil in version 1 files and when none was fitted.
	Calibration *calib.Calibration
	// Scaling is nil in files before version 7 and when the inputs were
	// not scaled.
	Scaling *data.Scaling
}

// Payload layout of a model file, format version 1 (little-endian;
// "slice" = uint64 count followed by the elements; "bytes" = uint64
// length followed by the bytes):
//
//	mode        uint32
//	classes     slice of float64
//	options     bytes (JSON object of the training options)
//	count       uint64 number of classifiers, then per classifier:
//	  kernel    bytes (name)
//	  degree    int64
//	  gamma     float64
//	  theta     slice of float64
//	  class     float64
//	  elapsed   float64
//	  n, d      uint64, uint64 (active set size, input dimension)
//	  X         n*d float64, row-major
//	  Y         n float64
//	  active    n int64
//	  tau, nu   n float64 each
//	  history   uint64 count, then per batch 5 int64 (pass, batch, active,
//	            included, deleted) and a float64 (log Z)
//
// Version 2 appends the calibration (calib.Calibration), version 3 the
// noise counts (after the calibration: per classifier, per history batch,
// int64 noise and skipped), version 4 the calibration's label-noise share
// Eps (float64 in [0, 1), after the noise counts, only if k > 0), version
// 5 per classifier a uint64 kind of sparse posterior, 0 (none) or 1 (FITC:
// β, |A| float64, then the lower Cholesky factor of P, |A|² float64
// row-major), version 6 the calibration's class balance (only if k > 0:
// uint64 count, 0 or k, then the shares, each in [0, 1], summing to one
// when k > 1), version 7 the input scaling (data.Scaling: uint64 count, 0
// for none or the input dimension d, then d float64 factors Mul, each
// finite and non-zero, and d float64 offsets Add, each finite), version 8
// the calibration's Kappa (only if k == 1: float64, 0 for 1/2 or in (0,
// 1)), version 9 the calibration's far-field gate (only if k > 0: float64
// GateNear and GateFar, both 0 or 0 < GateFar < GateNear <= 1):
//
//	k           uint64 number of biases: 0 (none), 1 for a Binary or
//	            PositiveVsRest model, the number of classifiers otherwise
//	A           float64 (only if k > 0), positive
//	B           k float64
func encodeRecord(r *record) []byte { return encodeRecordVersion(r, Version) }

// encodeRecordVersion writes the payload layout of a format version >= 2
// (tests write older files with it): the version 1 layout, then each
// later version's appendix in the order the versions added them.
func encodeRecordVersion(r *record, version uint32) []byte {
	e := &enc{}
	e.u32(uint32(r.Mode))
	e.floatSlice(r.Classes)
	e.bytes(r.Options)
	e.u64(uint64(len(r.Classifiers)))
	for i := range r.Classifiers {
		encodeClassifier(e, &r.Classifiers[i])
	}
	if c := r.Calibration; c != nil {
		e.u64(uint64(len(c.B)))
		e.f64(c.A)
		e.floats(c.B)
	} else {
		e.u64(0)
	}
	if version >= 3 {
		for i := range r.Classifiers {
			for _, h := range r.Classifiers[i].History {
				e.i64(int64(h.Noise))
				e.i64(int64(h.Skipped))
			}
		}
	}
	if version >= 4 && r.Calibration != nil {
		e.f64(r.Calibration.Eps)
	}
	if version >= 5 {
		for i := range r.Classifiers {
			encodeSparse(e, &r.Classifiers[i], version)
		}
	}
	if version >= 6 && r.Calibration != nil {
		e.u64(uint64(len(r.Calibration.Balance)))
		e.floats(r.Calibration.Balance)
	}
	if version >= 7 {
		if s := r.Scaling; s != nil {
			e.u64(uint64(len(s.Mul)))
			e.floats(s.Mul)
			e.floats(s.Add)
		} else {
			e.u64(0)
		}
	}
	if version >= 8 && r.Calibration != nil && len(r.Calibration.B) == 1 {
		e.f64(r.Calibration.Kappa)
	}
	if version >= 9 && r.Calibration != nil {
		e.f64(r.Calibration.GateNear)
		e.f64(r.Calibration.GateFar)
	}
	if version >= 10 && r.Calibration != nil {
		e.u64(uint64(len(r.Calibration.Slopes)))
		e.floats(r.Calibration.Slopes)
	} else if r.Calibration != nil && r.Calibration.Slopes != nil {
		panic("model: per-class calibration slopes need format version 10")
	}
	return e.b
}

// encodeClassifier writes one classifier of the version 1 layout.
func encodeClassifier(e *enc, c *Classifier) {
	e.str(c.Kernel)
	e.i64(int64(c.Degree))
	e.f64(c.Gamma)
	e.floatSlice(c.Theta)
	e.f64(c.Class)
	e.f64(c.Elapsed)
	e.u64(uint64(len(c.Y)))
	e.u64(uint64(c.D))
	e.floats(c.X)
	e.floats(c.Y)
	for _, a := range c.Active {
		e.i64(int64(a))
	}
	e.floats(c.Tau)
	e.floats(c.Nu)
	e.u64(uint64(len(c.History)))
	for _, h := range c.History {
		for _, v := range [...]int{h.Pass, h.Batch, h.Active, h.Included, h.Deleted} {
			e.i64(int64(v))
		}
		e.f64(h.LogZ)
	}
}

// encodeSparse writes a classifier's kind of sparse posterior (format
// version 5; kind 2, a FITC posterior on a subset of the active points,
// from version 10) and, for a FITC posterior, its β and factor.
func encodeSparse(e *enc, c *Classifier, version uint32) {
	switch {
	case c.Beta == nil:
		e.u64(0)
		return
	case c.Inducing == nil:
		e.u64(1)
	case version < 10:
		panic("model: a FITC posterior on a subset of the active points needs format version 10")
	default:
		e.u64(2)
		e.u64(uint64(len(c.Inducing)))
		for _, v := range c.Inducing {
			e.i64(int64(v))
		}
	}
	e.floats(c.Beta)
	e.floats(c.FactorP)
}

// decodeRecord parses and validates a payload of the given format
// version; it never panics. The steps follow the payload layout above:
// the header, the classifiers, then each later version's appendix in the
// order the versions added them.
func decodeRecord(b []byte, version uint32) (*record, error) {
	d := &dec{b: b}
	r := &record{}
	nc, err := decodeHeader(d, r)
	if err != nil {
		return nil, err
	}
	if err := decodeClassifiers(d, r, nc); err != nil {
		return nil, err
	}
	if version >= 2 {
		if err := decodeCalibration(d, r); err != nil {
			return nil, err
		}
	}
	if version >= 3 {
		if err := decodeNoise(d, r); err != nil {
			return nil, err
		}
	}
	if version >= 4 && r.Calibration != nil {
		eps, err := decodeShare(d, "Eps")
		if err != nil {
			return nil, err
		}
		r.Calibration.Eps = eps
	}
	if version >= 5 {
		for i := range r.Classifiers {
			if err := decodeSparse(d, &r.Classifiers[i], i, version); err != nil {
				return nil, err
			}
		}
	}
	if version >= 6 && r.Calibration != nil {
		if err := decodeBalance(d, r.Calibration); err != nil {
			return nil, err
		}
	}
	if version >= 7 {
		if err := decodeScaling(d, r); err != nil {
			return nil, err
		}
	}
	if version >= 8 && r.Calibration != nil && len(r.Calibration.B) == 1 {
		kappa, err := decodeShare(d, "Kappa")
		if err != nil {
			return nil, err
		}
		r.Calibration.Kappa = kappa
	}
	if version >= 9 && r.Calibration != nil {
		if err := decodeGate(d, r.Calibration); err != nil {
			return nil, err
		}
	}
	if version >= 10 && r.Calibration != nil {
		if err := decodeSlopes(d, r.Calibration); err != nil {
			return nil, err
		}
	}
	if d.remaining() != 0 {
		return nil, fmt.Errorf("%w: %d unexpected bytes at the end", ErrPayload, d.remaining())
	}
	return r, nil
}

// decodeHeader reads the mode, the class labels and the training options
// into r, checks them, and returns the number of classifiers that follow.
func decodeHeader(d *dec, r *record) (int, error) {
	r.Mode = Mode(d.u32())
	r.Classes = d.floatSlice("classes")
	r.Options = d.bytes("options")
	nc := d.count(8*8, "classifier count")
	if d.err != nil {
		return 0, d.err
	}
	if err := checkMode(r.Mode, len(r.Classes), nc); err != nil {
		return 0, err
	}
	for i, c := range r.Classes {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return 0, fmt.Errorf("%w: class label %d is %v", ErrPayload, i, c)
		}
		if i > 0 && !(c > r.Classes[i-1]) {
			return 0, fmt.Errorf("%w: class labels are not strictly increasing", ErrPayload)
		}
	}
	if len(r.Options) > 0 && !json.Valid(r.Options) {
		return 0, fmt.Errorf("%w: training options are not valid JSON", ErrPayload)
	}
	return nc, nil
}

// checkMode checks that a model of mode m has the numbers of classes and
// classifiers the mode maps between (see Mode's constants).
func checkMode(m Mode, classes, nc int) error {
	switch m {
	case Binary:
		if classes != 2 || nc != 1 {
			return fmt.Errorf("%w: binary model needs 2 classes and 1 classifier, has %d and %d", ErrPayload, classes, nc)
		}
	case OneVsRest:
		if classes < 2 || nc != classes {
			return fmt.Errorf("%w: one-vs-rest model needs one classifier per class (>= 2), has %d classes and %d classifiers", ErrPayload, classes, nc)
		}
	case PositiveVsRest:
		if classes != 1 || nc != 1 {
			return fmt.Errorf("%w: positive-vs-rest model needs 1 class and 1 classifier, has %d and %d", ErrPayload, classes, nc)
		}
	default:
		return fmt.Errorf("%w: unknown mode %d", ErrPayload, uint32(m))
	}
	return nil
}

// decodeClassifiers reads and validates the nc classifiers of the
// version 1 layout into r; all must have the same input dimension.
func decodeClassifiers(d *dec, r *record, nc int) error {
	dim := -1
	for i := 0; i < nc; i++ {
		c, err := decodeClassifier(d, i)
		if err != nil {
			return err
		}
		if err := c.validate(); err != nil {
			return fmt.Errorf("%w: classifier %d: %v", ErrPayload, i, err)
		}
		if dim >= 0 && c.D != dim {
			return fmt.Errorf("%w: classifier %d has input dimension %d, classifier 0 has %d", ErrPayload, i, c.D, dim)
		}
		dim = c.D
		r.Classifiers = append(r.Classifiers, c)
	}
	return nil
}

// decodeClassifier reads classifier i of the version 1 layout (kernel,
// active set, sites and history) without validating it.
func decodeClassifier(d *dec, i int) (Classifier, error) {
	var c Classifier
	c.Kernel = d.str("kernel name")
	c.Degree = int(d.i64())
	c.Gamma = d.f64()
	c.Theta = d.floatSlice("theta")
	c.Class = d.f64()
	c.Elapsed = d.f64()
	n := d.u64()
	dd := d.u64()
	if d.err != nil {
		return c, d.err
	}
	// Every active point needs (d+4)*8 bytes: check before allocating.
	if dd > 1<<32 || n > uint64(d.remaining())/((dd+4)*8) {
		return c, fmt.Errorf("%w: classifier %d: %d active points of dimension %d exceed the remaining %d bytes", ErrPayload, i, n, dd, d.remaining())
	}
	c.D = int(dd)
	c.X = d.floats(int(n * dd))
	c.Y = d.floats(int(n))
	c.Active = make([]int, n)
	for j := range c.Active {
		c.Active[j] = int(d.i64())
	}
	c.Tau = d.floats(int(n))
	c.Nu = d.floats(int(n))
	nh := d.count(6*8, "history")
	if d.err != nil {
		return c, d.err
	}
	c.History = make([]Batch, nh)
	for j := range c.History {
		h := &c.History[j]
		h.Pass, h.Batch, h.Active = int(d.i64()), int(d.i64()), int(d.i64())
		h.Included, h.Deleted = int(d.i64()), int(d.i64())
		h.LogZ = d.f64()
	}
	return c, d.err
}

// decodeCalibration reads and checks the calibration (format version 2):
// none, or A and one bias per classifier.
func decodeCalibration(d *dec, r *record) error {
	if k := d.count(8, "calibration"); k > 0 {
		c := &calib.Calibration{A: d.f64(), B: d.floats(k)}
		if d.err != nil {
			return d.err
		}
		if k != len(r.Classifiers) {
			return fmt.Errorf("%w: calibration for %d classifiers, model has %d", ErrPayload, k, len(r.Classifiers))
		}
		if !(c.A > 0) || math.IsInf(c.A, 0) || slices.ContainsFunc(c.B, func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }) {
			return fmt.Errorf("%w: calibration A = %v, B = %v: want A > 0 and all finite", ErrPayload, c.A, c.B)
		}
		r.Calibration = c
	}
	return d.err
}

// decodeNoise reads and checks the per-batch noise counts (format
// version 3) into the classifiers' histories.
func decodeNoise(d *dec, r *record) error {
	for i := range r.Classifiers {
		hist := r.Classifiers[i].History
		for j := range hist {
			hist[j].Noise, hist[j].Skipped = int(d.i64()), int(d.i64())
			if d.err == nil && (hist[j].Noise < 0 || hist[j].Skipped < 0) {
				return fmt.Errorf("%w: classifier %d batch %d: negative noise counts", ErrPayload, i, j)
			}
		}
	}
	return d.err
}

// decodeSparse reads classifier i's kind of sparse posterior (format
// version 5): 0 (none), 1 (FITC on all active points) or, from version
// 10, 2 (FITC on a subset), and for a FITC posterior its β and factor,
// and validates the classifier with it.
func decodeSparse(d *dec, c *Classifier, i int, version uint32) error {
	switch flag := d.u64(); {
	case d.err != nil:
		return d.err
	case flag == 1 || flag == 2 && version >= 10:
		n := uint64(len(c.Y))
		if flag == 2 {
			m, err := decodeInducing(d, c, i, n)
			if err != nil {
				return err
			}
			n = m
		}
		if n*(n+1) > uint64(d.remaining())/8 {
			return fmt.Errorf("%w: classifier %d: a FITC posterior of %d inducing points exceeds the remaining %d bytes", ErrPayload, i, n, d.remaining())
		}
		c.Beta = d.floats(int(n))
		c.FactorP = d.floats(int(n * n))
		if d.err != nil {
			return d.err
		}
		if err := c.validate(); err != nil {
			return fmt.Errorf("%w: classifier %d: %v", ErrPayload, i, err)
		}
	case flag != 0:
		return fmt.Errorf("%w: classifier %d: sparse posterior kind %d (want 0, 1 or, from version 10, 2)", ErrPayload, i, flag)
	}
	return nil
}

// decodeInducing reads the inducing inputs of a FITC posterior on a
// subset of classifier i's n active points (kind 2): their number m, then
// their indices, before the posterior's m + m² values. It returns m.
func decodeInducing(d *dec, c *Classifier, i int, n uint64) (uint64, error) {
	m := d.u64()
	if d.err != nil {
		return 0, d.err
	}
	if m == 0 || m > n {
		return 0, fmt.Errorf("%w: classifier %d: a FITC posterior on %d of %d active points", ErrPayload, i, m, n)
	}
	if m > uint64(d.remaining())/8 {
		return 0, fmt.Errorf("%w: classifier %d: %d inducing indices exceed the remaining %d bytes", ErrPayload, i, m, d.remaining())
	}
	c.Inducing = make([]int, m)
	for j := range c.Inducing {
		c.Inducing[j] = int(d.i64())
	}
	return m, d.err
}

// decodeShare reads a calibration share (Eps, version 4; Kappa, version
// 8) and checks that it lies in [0, 1).
func decodeShare(d *dec, name string) (float64, error) {
	v := d.f64()
	if d.err != nil {
		return 0, d.err
	}
	if !(v >= 0 && v < 1) {
		return 0, fmt.Errorf("%w: calibration %s = %v: want it in [0, 1)", ErrPayload, name, v)
	}
	return v, nil
}

// decodeGate reads and checks the calibration's far-field gate (format
// version 9): no gate (both 0) or 0 < GateFar < GateNear <= 1.
func decodeGate(d *dec, c *calib.Calibration) error {
	near, far := d.f64(), d.f64()
	if d.err != nil {
		return d.err
	}
	if !(near == 0 && far == 0) && !(far > 0 && far < near && near <= 1) {
		return fmt.Errorf("%w: calibration gate %v, %v: want both 0 or 0 < GateFar < GateNear <= 1", ErrPayload, near, far)
	}
	c.GateNear, c.GateFar = near, far
	return nil
}

// decodeSlopes reads and checks the calibration's per-class slopes
// (format version 10): none, or one positive finite slope per class of a
// multi-class calibration.
func decodeSlopes(d *dec, c *calib.Calibration) error {
	n := d.count(8, "calibration slopes")
	if d.err != nil {
		return d.err
	}
	if n == 0 {
		return nil
	}
	if n != len(c.B) || n < 2 {
		return fmt.Errorf("%w: %d calibration slopes for %d classes", ErrPayload, n, len(c.B))
	}
	c.Slopes = d.floats(n)
	if d.err != nil {
		return d.err
	}
	for j, v := range c.Slopes {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: calibration slope %d is %v: want positive and finite", ErrPayload, j, v)
		}
	}
	return nil
}

// decodeScaling reads and checks the input scaling (format version 7):
// none, or one factor and one offset per input dimension.
func decodeScaling(d *dec, r *record) error {
	n := d.count(16, "scaling")
	if d.err != nil {
		return d.err
	}
	if n == 0 {
		return nil
	}
	if dim := r.Classifiers[0].D; n != dim {
		return fmt.Errorf("%w: input scaling of %d features for input dimension %d", ErrPayload, n, dim)
	}
	s := &data.Scaling{Mul: d.floats(n), Add: d.floats(n)}
	if d.err != nil {
		return d.err
	}
	if err := s.Validate(n); err != nil {
		return fmt.Errorf("%w: %v", ErrPayload, err)
	}
	r.Scaling = s
	return nil
}

// decodeBalance reads and checks the class balance of a calibration
// (format version 6): none, or one share per bias, each in [0, 1], summing
// to one for more than one.
func decodeBalance(d *dec, c *calib.Calibration) error {
	n := d.u64()
	if d.err != nil {
		return d.err
	}
	if n == 0 {
		return nil
	}
	if n != uint64(len(c.B)) {
		return fmt.Errorf("%w: calibration balance of %d classes for %d biases", ErrPayload, n, len(c.B))
	}
	bal := d.floats(int(n))
	if d.err != nil {
		return d.err
	}
	sum := 0.0
	for _, v := range bal {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("%w: calibration balance %v: want shares in [0, 1]", ErrPayload, bal)
		}
		sum += v
	}
	if n > 1 && math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("%w: calibration balance %v sums to %v, want 1", ErrPayload, bal, sum)
	}
	c.Balance = bal
	return nil
}

// validate checks what ep.FromSites and the kernel need; it does not
// build anything. The checks run in a fixed order (kernel, active set and
// sites, FITC posterior), so a file with several faults always reports
// the same one.
func (c *Classifier) validate() error {
	if err := c.validateKernel(); err != nil {
		return err
	}
	if err := c.validateActive(); err != nil {
		return err
	}
	return c.validateFITC()
}

// validateKernel checks the kernel name and its hyperparameters: their
// number for the kernel, and each positive and finite.
func (c *Classifier) validateKernel() error {
	switch c.Kernel {
	case "se":
		if len(c.Theta) != 3 {
			return fmt.Errorf("kernel se needs 3 hyperparameters, has %d", len(c.Theta))
		}
	case "se+lin", "se+bias":
		if len(c.Theta) != 4 {
			return fmt.Errorf("kernel %s needs 4 hyperparameters, has %d", c.Kernel, len(c.Theta))
		}
	case "seard", "seard+bias":
		np := c.D + 2
		if c.Kernel == "seard+bias" {
			np++
		}
		if c.D < 1 || len(c.Theta) != np {
			return fmt.Errorf("kernel %s for %d features needs %d hyperparameters, has %d", c.Kernel, c.D, np, len(c.Theta))
		}
	case "poly":
		if len(c.Theta) != 2 {
			return fmt.Errorf("kernel poly needs 2 hyperparameters, has %d", len(c.Theta))
		}
		if c.Degree < 1 || c.Degree > 1000 {
			return fmt.Errorf("poly degree %d out of range", c.Degree)
		}
		if !(c.Gamma >= 0) || math.IsInf(c.Gamma, 0) {
			return fmt.Errorf("poly gamma %v invalid", c.Gamma)
		}
	default:
		return fmt.Errorf("unknown kernel %q", c.Kernel)
	}
	for _, t := range c.Theta {
		if !(t > 0) || math.IsInf(t, 0) {
			return fmt.Errorf("hyperparameter %v is not positive and finite", t)
		}
	}
	return nil
}

// validateActive checks the active set and its sites: a non-empty set of
// finite inputs with labels ±1, consistent lengths, sites of finite
// natural mean and non-negative finite precision, indices >= -1.
func (c *Classifier) validateActive() error {
	if c.D < 1 {
		return fmt.Errorf("input dimension %d", c.D)
	}
	if len(c.Y) == 0 {
		return fmt.Errorf("empty active set")
	}
	n := len(c.Y)
	if len(c.X) != n*c.D || len(c.Active) != n || len(c.Tau) != n || len(c.Nu) != n {
		return fmt.Errorf("inconsistent lengths")
	}
	if math.IsNaN(c.Class) || math.IsInf(c.Class, 0) {
		return fmt.Errorf("class label %v", c.Class)
	}
	for _, v := range c.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("active input %v is not finite", v)
		}
	}
	for j, y := range c.Y {
		if y != 1 && y != -1 {
			return fmt.Errorf("active label %d is %v, not ±1", j, y)
		}
		if !(c.Tau[j] >= 0) || math.IsInf(c.Tau[j], 0) {
			return fmt.Errorf("site precision %d is %v", j, c.Tau[j])
		}
		if math.IsNaN(c.Nu[j]) || math.IsInf(c.Nu[j], 0) {
			return fmt.Errorf("site mean %d is %v", j, c.Nu[j])
		}
		if c.Active[j] < -1 {
			return fmt.Errorf("active index %d is %d", j, c.Active[j])
		}
	}
	return nil
}

// validateFITC checks the FITC posterior, if any, on a valid active set:
// ascending inducing indices into it, β and P's factor of the lengths the
// inducing inputs give, β finite and the factor lower triangular with a
// positive finite diagonal.
func (c *Classifier) validateFITC() error {
	if c.Beta == nil && c.FactorP == nil {
		if c.Inducing != nil {
			return fmt.Errorf("FITC inducing indices without a FITC posterior")
		}
		return nil
	}
	n := len(c.Y)
	if c.Inducing != nil {
		for j, v := range c.Inducing {
			if v < 0 || v >= n || j > 0 && v <= c.Inducing[j-1] {
				return fmt.Errorf("FITC inducing index %d is %d (want ascending indices in [0, %d))", j, v, n)
			}
		}
		n = len(c.Inducing)
	}
	if len(c.Beta) != n || len(c.FactorP) != n*n {
		return fmt.Errorf("FITC posterior: β of length %d and factor of length %d for %d inducing points", len(c.Beta), len(c.FactorP), n)
	}
	for j, v := range c.Beta {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("FITC posterior: β[%d] is %v", j, v)
		}
	}
	for i := range n {
		for j, v := range c.FactorP[i*n : (i+1)*n] {
			switch {
			case j > i && v != 0:
				return fmt.Errorf("FITC posterior: factor entry (%d, %d) above the diagonal is %v", i, j, v)
			case j == i && !(v > 0 && !math.IsInf(v, 0)):
				return fmt.Errorf("FITC posterior: factor diagonal %d is %v", i, v)
			case math.IsNaN(v) || math.IsInf(v, 0):
				return fmt.Errorf("FITC posterior: factor entry (%d, %d) is %v", i, j, v)
			}
		}
	}
	return nil
}
