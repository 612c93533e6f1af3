package data

import (
	"fmt"
	"math"
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
	if !(lo < hi) {
		panic(fmt.Sprintf("data: FitMinMax range [%v, %v] is empty", lo, hi))
	}
	mn, mx := make([]float64, d.D), make([]float64, d.D)
	for j := range mn {
		mn[j], mx[j] = math.Inf(1), math.Inf(-1)
	}
	for i := range d.N {
		for j, v := range d.Row(i) {
			mn[j] = min(mn[j], v)
			mx[j] = max(mx[j], v)
		}
	}
	s := &Scaling{Mul: make([]float64, d.D), Add: make([]float64, d.D)}
	for j := range mn {
		s.Mul[j] = 1
		if mx[j] > mn[j] {
			s.Mul[j] = (hi - lo) / (mx[j] - mn[j])
		}
		s.Add[j] = lo - mn[j]*s.Mul[j]
		if d.N == 0 {
			s.Mul[j], s.Add[j] = 1, 0
		}
	}
	return s
}

// FitStandard returns the Scaling that gives each feature zero mean and
// unit (population) variance on d. A constant feature is only centred.
func FitStandard(d *Dataset) *Scaling {
	mean, m2 := make([]float64, d.D), make([]float64, d.D)
	// Welford's update: stable for large offsets.
	for i := range d.N {
		for j, v := range d.Row(i) {
			delta := v - mean[j]
			mean[j] += delta / float64(i+1)
			m2[j] += delta * (v - mean[j])
		}
	}
	s := &Scaling{Mul: make([]float64, d.D), Add: make([]float64, d.D)}
	for j := range mean {
		s.Mul[j] = 1
		if sd := math.Sqrt(m2[j] / float64(max(d.N, 1))); sd > 0 {
			s.Mul[j] = 1 / sd
		}
		s.Add[j] = -mean[j] * s.Mul[j]
	}
	return s
}

// Apply scales the rows of d in place. It returns an error when d has a
// different number of features than the data s was fitted on, or when a
// scaled value overflows.
func (s *Scaling) Apply(d *Dataset) error {
	if len(s.Mul) != d.D || len(s.Add) != d.D {
		return &ParseError{File: d.Source, Msg: fmt.Sprintf("%d features, scaling fitted on %d", d.D, len(s.Mul))}
	}
	for i := range d.N {
		row := d.Row(i)
		for j, v := range row {
			row[j] = v*s.Mul[j] + s.Add[j]
			if math.IsInf(row[j], 0) || math.IsNaN(row[j]) {
				return &ParseError{File: d.Source, Msg: fmt.Sprintf("example %d feature %d: scaled value of %v is not finite", i+1, j+1, v)}
			}
		}
	}
	return nil
}
