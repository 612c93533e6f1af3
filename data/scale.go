package data

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Scaling is a per-feature affine map x[j] → x[j]*Mul[j] + Add[j], fitted
// on training data (FitMinMax, FitStandard) and applied alike to training
// and test data.
type Scaling struct {
	Mul, Add []float64
}

// FitMinMax returns the Scaling that maps each feature's range on d to
// [lo, hi], like svm-scale and scikit-learn's MinMaxScaler. A feature that
// is constant on d is only shifted (to lo).
func FitMinMax(d *Dataset, lo, hi float64) *Scaling {
	return StatsOf(d).FitMinMax(lo, hi)
}

// FitStandard returns the Scaling that gives each feature zero mean and
// unit (population) variance on d. A constant feature is only centred.
func FitStandard(d *Dataset) *Scaling { return StatsOf(d).FitStandard() }

// StdDev returns the (population) standard deviation of each feature of
// d.
func (d *Dataset) StdDev() []float64 { return StatsOf(d).StdDev() }

// Apply scales the rows of d in place. It returns an error when d has a
// different number of features than the data s was fitted on, or when a
// scaled value overflows.
func (s *Scaling) Apply(d *Dataset) error {
	if len(s.Mul) != d.D || len(s.Add) != d.D {
		return &ParseError{File: d.Source, Msg: fmt.Sprintf("%d features, scaling fitted on %d", d.D, len(s.Mul))}
	}
	return s.scale(d, true)
}

// scale computes the scaled values of d's rows, writing them back when
// write is set, and returns an error at the first that is not finite.
func (s *Scaling) scale(d *Dataset, write bool) error {
	for i := range d.N {
		row := d.Row(i)
		for j, v := range row {
			u := v*s.Mul[j] + s.Add[j]
			if write {
				row[j] = u
			}
			if math.IsInf(u, 0) || math.IsNaN(u) {
				return &ParseError{File: d.Source, Msg: fmt.Sprintf("example %d feature %d: scaled value of %v is not finite", i+1, j+1, v)}
			}
		}
	}
	return nil
}

// InRange reports whether every feature value of d lies in [lo, hi]: data
// already scaled, as svm-scale writes them ([-1, 1]) or images in [0, 1].
func (d *Dataset) InRange(lo, hi float64) bool { return StatsOf(d).InRange(lo, hi) }

// Check returns the error Apply would return on d, without changing d.
func (s *Scaling) Check(d *Dataset) error {
	if err := s.Validate(d.D); err != nil {
		return &ParseError{File: d.Source, Msg: err.Error()}
	}
	return s.scale(d, false)
}

// Validate returns an error unless s maps d features with finite, non-zero
// factors and finite offsets: what a Scaling read from a file must be.
func (s *Scaling) Validate(d int) error {
	if len(s.Mul) != d || len(s.Add) != d {
		return fmt.Errorf("scaling of %d and %d features for %d features", len(s.Mul), len(s.Add), d)
	}
	for j := range d {
		m, a := s.Mul[j], s.Add[j]
		if m == 0 || math.IsInf(m, 0) || math.IsNaN(m) || math.IsInf(a, 0) || math.IsNaN(a) {
			return fmt.Errorf("scaling of feature %d is x*%v + %v: want a finite non-zero factor and a finite offset", j+1, m, a)
		}
	}
	return nil
}

// ApplyTo sets dst (n×d, may be x) to the rows of x scaled by s. It
// panics if the shapes differ from s's number of features; a value that
// overflows becomes ±Inf, which Check reports beforehand.
func (s *Scaling) ApplyTo(dst, x *mat.Dense) {
	n, d := x.Dims()
	if r, c := dst.Dims(); r != n || c != d || d != len(s.Mul) || d != len(s.Add) {
		panic("data: Scaling.ApplyTo: shapes differ")
	}
	for i := range n {
		src, out := x.RawRowView(i), dst.RawRowView(i)
		for j, v := range src {
			out[j] = v*s.Mul[j] + s.Add[j]
		}
	}
}
