package data

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestScaling(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d = 50, 4
	ds := &Dataset{N: n, D: d, X: make([]float64, n*d), Source: "s"}
	for i := range n {
		r := ds.Row(i)
		r[0] = 1000 + rng.NormFloat64()*3
		r[1] = rng.Float64()*10 - 5
		r[2] = 7 // constant
		r[3] = rng.ExpFloat64()
	}
	const tol = 1e-12

	mm := ds.Subset(seq(n))
	if err := FitMinMax(mm, -1, 1).Apply(mm); err != nil {
		t.Fatal(err)
	}
	for j := range d {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range n {
			lo, hi = min(lo, mm.Row(i)[j]), max(hi, mm.Row(i)[j])
		}
		wantHi := 1.0
		if j == 2 {
			wantHi = -1 // constant: shifted to lo
		}
		if math.Abs(lo+1) > tol || math.Abs(hi-wantHi) > tol {
			t.Errorf("min-max feature %d in [%v, %v], want [-1, %v]", j, lo, hi, wantHi)
		}
	}

	st := ds.Subset(seq(n))
	if err := FitStandard(st).Apply(st); err != nil {
		t.Fatal(err)
	}
	for j := range d {
		var s, s2 float64
		for i := range n {
			v := st.Row(i)[j]
			s += v
			s2 += v * v
		}
		mean, vr := s/n, s2/n-(s/n)*(s/n)
		wantVar := 1.0
		if j == 2 {
			wantVar = 0
		}
		if math.Abs(mean) > 1e-9 || math.Abs(vr-wantVar) > 1e-9 {
			t.Errorf("standardised feature %d: mean %v var %v, want 0, %v", j, mean, vr, wantVar)
		}
	}

	other := &Dataset{N: 1, D: 3, X: []float64{1, 2, 3}, Source: "t"}
	checkError(t, nil, FitStandard(ds).Apply(other), "t: 3 features, scaling fitted on 4")
	big := &Dataset{N: 1, D: 1, X: []float64{1e308}, Source: "b"}
	sc := &Scaling{Mul: []float64{10}, Add: []float64{0}}
	checkError(t, nil, sc.Apply(big), "b: example 1 feature 1: scaled value of 1e+308 is not finite")
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestScalingCheckAndApplyTo: InRange tells scaled data from raw, Check
// reports the row and feature whose scaled value overflows (as Apply
// would) without changing the data, Validate refuses what a model file
// must not hold, and ApplyTo on a matrix gives Apply's values.
func TestScalingCheckAndApplyTo(t *testing.T) {
	ds := &Dataset{N: 3, D: 2, X: []float64{-1, 0.5, 1, -0.25, 0, 1}, Source: "f.svm"}
	if !ds.InRange(-1, 1) || ds.InRange(0, 1) {
		t.Errorf("InRange(-1, 1) %v, InRange(0, 1) %v: want true, false", ds.InRange(-1, 1), ds.InRange(0, 1))
	}
	s := &Scaling{Mul: []float64{2, 1e308}, Add: []float64{1, 0}}
	ds.Row(0)[1] = 4 // 4e308 overflows
	before := append([]float64(nil), ds.X...)
	err := s.Check(ds)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != "f.svm" || !strings.Contains(err.Error(), "example 1 feature 2") {
		t.Errorf("Check: %v, want a ParseError naming f.svm, example 1, feature 2", err)
	}
	if !slices.Equal(ds.X, before) {
		t.Error("Check changed the data")
	}
	if err := s.Apply(ds.Subset(seq(3))); err == nil || err.Error() != s.Check(ds).Error() {
		t.Errorf("Apply: %v, Check: %v: want the same error", err, s.Check(ds))
	}
	ok := &Scaling{Mul: []float64{2, -3}, Add: []float64{1, 0.5}}
	if err := ok.Check(ds); err != nil {
		t.Fatal(err)
	}
	cp := ds.Subset(seq(3))
	x := mat.DenseCopyOf(ds.Dense())
	ok.ApplyTo(x, x)
	if err := ok.Apply(cp); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(x.RawMatrix().Data, cp.X) {
		t.Errorf("ApplyTo %v, Apply %v", x.RawMatrix().Data, cp.X)
	}
	for _, bad := range []*Scaling{
		{Mul: []float64{1}, Add: []float64{0}},
		{Mul: []float64{0, 1}, Add: []float64{0, 0}},
		{Mul: []float64{math.Inf(1), 1}, Add: []float64{0, 0}},
		{Mul: []float64{1, 1}, Add: []float64{math.NaN(), 0}},
	} {
		if bad.Validate(2) == nil || bad.Check(ds) == nil {
			t.Errorf("scaling %+v accepted", bad)
		}
	}
}
