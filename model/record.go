package model

import (
	"encoding/json"
	"fmt"

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
