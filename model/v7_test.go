package model

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/data"
)

// TestScalingRoundTrip: format version 7 stores the input scaling, and a
// model with one predicts from inputs as in the training file: its
// latents and probabilities at x are those of the same classifiers
// without the scaling at the scaled x, bit for bit. A version 6 file of
// the model loads without it; a scaling of the wrong length, or with a
// zero or non-finite factor or offset, is refused.
func TestScalingRoundTrip(t *testing.T) {
	m := toyModel(t, OneVsRest, kernels[0], 9)
	m.Calibration = &calib.Calibration{A: 1.5, B: []float64{0.1, -0.2, 0.05}, Eps: 0.07, Balance: []float64{0.5, 0.3, 0.2}}
	d := m.D()
	s := &data.Scaling{Mul: make([]float64, d), Add: make([]float64, d)}
	for j := range d {
		s.Mul[j], s.Add[j] = 1/(100*float64(j+1)), -3+float64(j)
	}
	m.Scaling = s
	got := reencode(t, m)
	if got.FormatVersion != Version || !reflect.DeepEqual(got.Scaling, s) {
		t.Fatalf("version %d, scaling %+v; want %+v", got.FormatVersion, got.Scaling, s)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	raw, scaled := mat.NewDense(30, d, nil), mat.NewDense(30, d, nil)
	for i := range 30 {
		for j := range d {
			raw.Set(i, j, 100*float64(j+1)*(3-float64(j)+rng.NormFloat64()))
		}
	}
	s.ApplyTo(scaled, raw)
	plain := *m
	plain.Scaling = nil
	for _, c := range []struct {
		name string
		f    func(m *Model, dst, x *mat.Dense)
	}{
		{"latent", (*Model).LatentTo},
		{"prob", (*Model).ProbTo},
	} {
		cols := len(m.Binaries)
		if c.name == "prob" {
			cols = len(m.Outputs())
		}
		a, b := mat.NewDense(30, cols, nil), mat.NewDense(30, cols, nil)
		c.f(got, a, raw)
		c.f(&plain, b, scaled)
		if !mat.Equal(a, b) {
			t.Errorf("%s: the scaled model at x differs from the classifiers at the scaled x", c.name)
		}
		c.f(&plain, b, raw)
		if mat.Equal(a, b) {
			t.Errorf("%s: the scaling changed nothing", c.name)
		}
	}
	if v6 := asVersion(t, m, 6); v6.FormatVersion != 6 || v6.Scaling != nil {
		t.Fatalf("version 6 file: version %d, scaling %+v", v6.FormatVersion, v6.Scaling)
	}
	with := func(j int, mul, add float64) *data.Scaling {
		b := &data.Scaling{Mul: append([]float64(nil), s.Mul...), Add: append([]float64(nil), s.Add...)}
		b.Mul[j], b.Add[j] = mul, add
		return b
	}
	for _, bad := range []*data.Scaling{
		{Mul: s.Mul[:d-1], Add: s.Add[:d-1]},
		{Mul: append(append([]float64(nil), s.Mul...), 1), Add: append(append([]float64(nil), s.Add...), 0)},
		with(0, 0, 0),
		with(1, math.NaN(), 0),
		with(d-1, math.Inf(-1), 0),
		with(d-1, 1, math.Inf(1)),
	} {
		m.Scaling = bad
		if _, err := Encode(m); err == nil {
			t.Errorf("scaling %+v: Encode accepted it", bad)
		}
		r, err := m.record()
		if err == nil {
			t.Fatalf("scaling %+v: record accepted it", bad)
		}
		m.Scaling = nil
		if r, err = m.record(); err != nil {
			t.Fatal(err)
		}
		r.Scaling = bad
		if _, err := Decode(frame(KindModel, encodeRecord(r))); !errors.Is(err, ErrPayload) {
			t.Errorf("scaling %+v: %v", bad, err)
		}
	}
}
