package model

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// TestFITCRoundTrip: format version 5 stores the FITC posterior of
// passgp.TrainFITC, and a loaded model predicts bit for bit as the
// trained one; a classifier without the pass stays without; a version 4
// file of the same model predicts from the active sets; a factor that is
// not lower triangular with a positive diagonal is refused.
func TestFITCRoundTrip(t *testing.T) {
	m := toyModel(t, OneVsRest, kernels[0], 9)
	rng := rand.New(rand.NewPCG(3, 3))
	for i, b := range m.Binaries {
		if i == 1 {
			continue
		}
		addFITC(t, rng, b, 80, nil)
	}
	xs := toyBinary(t, rng, kernels[0], 30, 5).X
	predict := func(m *Model) [][]float64 { return meanVars(m, xs) }
	want := predict(m)
	got := reencode(t, m)
	if got.FormatVersion != Version || got.Binaries[0].Sparse == nil || got.Binaries[1].Sparse != nil {
		t.Fatalf("version %d, sparse %v %v", got.FormatVersion, got.Binaries[0].Sparse != nil, got.Binaries[1].Sparse != nil)
	}
	samePredictions(t, predict(got), want)
	v4 := asVersion(t, m, 4)
	for i, b := range v4.Binaries {
		if b.Sparse != nil {
			t.Fatalf("version 4 file: classifier %d has a FITC posterior", i)
		}
	}
	if p := predict(v4); p[0][0] == want[0][0] {
		t.Errorf("version 4 file predicts the FITC posterior's %v", p[0][0])
	}
	for _, bad := range []func(c *Classifier){
		func(c *Classifier) { c.FactorP[1] = 0.5 },           // above the diagonal
		func(c *Classifier) { c.FactorP[0] = -c.FactorP[0] }, // diagonal
		func(c *Classifier) { c.Beta = c.Beta[1:] },
	} {
		r, err := m.record()
		if err != nil {
			t.Fatal(err)
		}
		c := &r.Classifiers[0]
		c.Beta, c.FactorP = append([]float64(nil), c.Beta...), append([]float64(nil), c.FactorP...)
		bad(c)
		if _, err := Decode(frame(KindModel, encodeRecord(r))); !errors.Is(err, ErrPayload) {
			t.Errorf("bad FITC posterior: %v", err)
		}
	}
}

// meanVars returns every classifier's predictive means and variances at xs.
func meanVars(m *Model, xs *mat.Dense) [][]float64 {
	n, _ := xs.Dims()
	var out [][]float64
	for _, b := range m.Binaries {
		mu, v := make([]float64, n), make([]float64, n)
		b.PredictMeanVarTo(mu, v, xs)
		out = append(out, mu, v)
	}
	return out
}

// samePredictions fails unless got and want are equal bit for bit.
func samePredictions(t *testing.T, got, want [][]float64) {
	t.Helper()
	for i, p := range got {
		for j := range p {
			if p[j] != want[i][j] {
				t.Fatalf("prediction %d/%d: loaded %v, trained %v", i, j, p[j], want[i][j])
			}
		}
	}
}

// addFITC gives b a FITC posterior on n random training points (toyBinary)
// with b's active inputs idx (nil: all of them) as inducing inputs.
func addFITC(t testing.TB, rng *rand.Rand, b *passgp.Binary, n int, idx []int) {
	t.Helper()
	tr := toyBinary(t, rng, b.Kernel, n, b.X.RawMatrix().Cols)
	xm := b.X
	if idx != nil {
		xm = mat.NewDense(len(idx), b.X.RawMatrix().Cols, nil)
		for r, j := range idx {
			xm.SetRow(r, b.X.RawRowView(j))
		}
	}
	f, err := ep.InferFITC(context.Background(), b.Kernel, tr.X, tr.Y, xm, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Sparse, b.Inducing = f, idx
}

// encodePanics fails unless encoding r in the payload layout of version
// panics, as it must for what that version cannot hold.
func encodePanics(t *testing.T, r *record, version uint32, what string) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("version %d encoding of %s did not panic", version, what)
		}
	}()
	encodeRecordVersion(r, version)
}
