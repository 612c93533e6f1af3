package data

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
)

// Stats are the per-feature statistics that input scaling needs (range,
// mean and standard deviation), gathered one row at a time in the data's
// order, so that a Dataset in memory (StatsOf) and one pass over a Source
// (ReadStats) give the same values, bit for bit.
type Stats struct {
	N        int
	Min, Max []float64
	mean, m2 []float64
}

// NewStats returns the statistics of no rows of d features.
func NewStats(d int) *Stats {
	s := &Stats{Min: make([]float64, d), Max: make([]float64, d), mean: make([]float64, d), m2: make([]float64, d)}
	for j := range d {
		s.Min[j], s.Max[j] = math.Inf(1), math.Inf(-1)
	}
	return s
}

// Add adds a row. The mean and variance use Welford's update, stable for
// large offsets.
func (s *Stats) Add(row []float64) {
	s.N++
	for j, v := range row {
		s.Min[j] = min(s.Min[j], v)
		s.Max[j] = max(s.Max[j], v)
		delta := v - s.mean[j]
		s.mean[j] += delta / float64(s.N)
		s.m2[j] += delta * (v - s.mean[j])
	}
}

// StatsOf returns the statistics of d's rows.
func StatsOf(d *Dataset) *Stats {
	s := NewStats(d.D)
	for i := range d.N {
		s.Add(d.Row(i))
	}
	return s
}

// ReadStats reads one pass of src and returns its statistics and, when
// src is labelled, every example's label in order (N float64s: the only
// per-example memory a streamed training run keeps of its data).
func ReadStats(ctx context.Context, src Source) (*Stats, []float64, error) {
	if err := src.Reset(); err != nil {
		return nil, nil, err
	}
	s := NewStats(src.Dim())
	var y []float64
	if n := src.Len(); n > 0 && src.Labelled() {
		y = make([]float64, 0, n)
	}
	b := NewBatch(max(1, (1<<20)/(8*src.Dim()+8)), src.Dim())
	for {
		err := src.Next(ctx, b)
		if errors.Is(err, io.EOF) {
			return s, y, nil
		}
		if err != nil {
			return nil, nil, err
		}
		for i := range b.Len() {
			s.Add(b.Row(i))
		}
		if src.Labelled() {
			y = append(y, b.Y()...)
		}
	}
}

// StdDev returns each feature's population standard deviation.
func (s *Stats) StdDev() []float64 {
	sd := make([]float64, len(s.m2))
	for j, v := range s.m2 {
		sd[j] = math.Sqrt(v / float64(max(s.N, 1)))
	}
	return sd
}

// InRange reports whether every feature value lies in [lo, hi].
func (s *Stats) InRange(lo, hi float64) bool {
	for j := range s.Min {
		if s.N > 0 && !(s.Min[j] >= lo && s.Max[j] <= hi) {
			return false
		}
	}
	return true
}

// FitMinMax returns the Scaling that maps each feature's range to [lo,
// hi], like svm-scale and scikit-learn's MinMaxScaler. A constant feature
// is only shifted (to lo).
func (s *Stats) FitMinMax(lo, hi float64) *Scaling {
	if !(lo < hi) {
		panic(fmt.Sprintf("data: FitMinMax range [%v, %v] is empty", lo, hi))
	}
	d := len(s.Min)
	sc := &Scaling{Mul: make([]float64, d), Add: make([]float64, d)}
	for j := range d {
		sc.Mul[j] = 1
		if s.Max[j] > s.Min[j] {
			sc.Mul[j] = (hi - lo) / (s.Max[j] - s.Min[j])
		}
		sc.Add[j] = lo - s.Min[j]*sc.Mul[j]
		if s.N == 0 {
			sc.Mul[j], sc.Add[j] = 1, 0
		}
	}
	return sc
}

// FitStandard returns the Scaling that gives each feature zero mean and
// unit (population) variance. A constant feature is only centred.
func (s *Stats) FitStandard() *Scaling {
	sd := s.StdDev()
	d := len(sd)
	sc := &Scaling{Mul: make([]float64, d), Add: make([]float64, d)}
	for j := range d {
		sc.Mul[j] = 1
		if sd[j] > 0 && !math.IsInf(1/sd[j], 0) {
			sc.Mul[j] = 1 / sd[j]
		}
		sc.Add[j] = -s.mean[j] * sc.Mul[j]
	}
	return sc
}

// ScaleRow scales row in place, as Apply scales a Dataset's rows, and
// returns an error naming the feature (1-based) whose scaled value is not
// finite.
func (s *Scaling) ScaleRow(row []float64) error {
	for j, v := range row {
		u := v*s.Mul[j] + s.Add[j]
		row[j] = u
		if math.IsInf(u, 0) || math.IsNaN(u) {
			return fmt.Errorf("feature %d: scaled value of %v is not finite", j+1, v)
		}
	}
	return nil
}
