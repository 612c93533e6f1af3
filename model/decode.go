package model

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/data"
)

// This file reads a model file's payload (the layout at encodeRecord),
// checking every field as it goes.

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
