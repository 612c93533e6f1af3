package model

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
)

// TestFITCSubsetRoundTrip: format version 10 stores a FITC posterior whose
// inducing inputs are a subset of the active points
// (passgp.Options.BoundFITC) as their indices, and a loaded model predicts
// bit for bit as the trained one; version 9 cannot hold it; indices out of
// range, out of order or too many, and a posterior of the wrong size, are
// refused.
func TestFITCSubsetRoundTrip(t *testing.T) {
	m := toyModel(t, OneVsRest, kernels[0], 9)
	rng := rand.New(rand.NewPCG(4, 4))
	for i, b := range m.Binaries {
		if i == 1 {
			continue
		}
		idx := []int{0, 2, 3, len(b.Y) - 1}
		if i == 2 {
			idx = nil // all active points: kind 1
		}
		addFITC(t, rng, b, 80, idx)
	}
	xs := toyBinary(t, rng, kernels[0], 30, 5).X
	want := meanVars(m, xs)
	got := reencode(t, m)
	if got.FormatVersion != Version || Version < 10 {
		t.Fatalf("version %d", got.FormatVersion)
	}
	for i, b := range got.Binaries {
		if !slices.Equal(b.Inducing, m.Binaries[i].Inducing) || (b.Sparse == nil) != (i == 1) {
			t.Fatalf("classifier %d: inducing %v, want %v; sparse %v", i, b.Inducing, m.Binaries[i].Inducing, b.Sparse != nil)
		}
	}
	samePredictions(t, meanVars(got, xs), want)
	r, err := m.record()
	if err != nil {
		t.Fatal(err)
	}
	encodePanics(t, r, 9, "a FITC posterior on a subset")
	for name, bad := range map[string]func(c *Classifier){
		"index out of range": func(c *Classifier) { c.Inducing[3] = len(c.Y) },
		"negative index":     func(c *Classifier) { c.Inducing[0] = -1 },
		"out of order":       func(c *Classifier) { c.Inducing[1], c.Inducing[2] = c.Inducing[2], c.Inducing[1] },
		"repeated":           func(c *Classifier) { c.Inducing[2] = c.Inducing[1] },
		"posterior too big":  func(c *Classifier) { c.Inducing = c.Inducing[:3] },
		"too many indices": func(c *Classifier) {
			c.Inducing = make([]int, len(c.Y)+1)
			for j := range c.Inducing {
				c.Inducing[j] = j
			}
		},
	} {
		r, err := m.record()
		if err != nil {
			t.Fatal(err)
		}
		c := &r.Classifiers[0]
		c.Inducing = slices.Clone(c.Inducing)
		bad(c)
		if _, err := Decode(frame(KindModel, encodeRecord(r))); !errors.Is(err, ErrPayload) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestCalibrationSlopesRoundTrip: format version 10 stores a multi-class
// calibration's per-class slopes, and the loaded model's probabilities are
// the trained one's bit for bit; a version 9 file cannot hold them;
// slopes that are not positive and finite, or not one per class, are
// refused.
func TestCalibrationSlopesRoundTrip(t *testing.T) {
	m := toyModel(t, OneVsRest, kernels[2], 4)
	k := len(m.Binaries)
	c := &calib.Calibration{A: 1.2, B: make([]float64, k), Eps: 0.05, Slopes: make([]float64, k)}
	for j := range k {
		c.B[j], c.Slopes[j] = 0.1*float64(j), 0.8+0.3*float64(j)
	}
	m.Calibration = c
	got := reencode(t, m)
	if !slices.Equal(got.Calibration.Slopes, c.Slopes) {
		t.Fatalf("slopes %v, want %v", got.Calibration.Slopes, c.Slopes)
	}
	x := toyBinary(t, rand.New(rand.NewPCG(5, 5)), kernels[2], 20, m.D()).X
	p, want := mat.NewDense(20, k, nil), mat.NewDense(20, k, nil)
	got.ProbTo(p, x)
	m.ProbTo(want, x)
	if !mat.Equal(p, want) {
		t.Error("loaded probabilities differ")
	}
	r, err := m.record()
	if err != nil {
		t.Fatal(err)
	}
	encodePanics(t, r, 9, "per-class slopes")
	ones := func(n int, j int, v float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = 1
		}
		if j >= 0 {
			s[j] = v
		}
		return s
	}
	for name, bad := range map[string][]float64{
		"zero":     ones(k, 1, 0),
		"NaN":      ones(k, 1, math.NaN()),
		"infinite": ones(k, 0, math.Inf(1)),
		"one less": ones(k-1, -1, 0),
	} {
		r, err := m.record()
		if err != nil {
			t.Fatal(err)
		}
		cc := *r.Calibration
		cc.Slopes = bad
		r.Calibration = &cc
		if _, err := Decode(frame(KindModel, encodeRecord(r))); !errors.Is(err, ErrPayload) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
