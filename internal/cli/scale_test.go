package cli

import (
	"github.com/passgp-fast/passgp-fast/synth"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
)

// TestTrainScale: with features on scales of hundreds and hundredths,
// train's default --scale auto fits the svm-scale map to the training
// data and stores it in the model, which applies it to every input it
// predicts: its predictions on the raw test file are those of a model
// trained with --scale none on the training file scaled beforehand, at
// the scaled test file, byte for byte. Data already in [-1, 1] are left
// as they are; a test value that the scaling would overflow is an error
// naming the file; an unknown mode is a usage error.
func TestTrainScale(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	stretch := func(ds *data.Dataset) *data.Dataset {
		for i := range ds.N {
			r := ds.Row(i)
			r[0] = 300*r[0] + 1000
			r[2] *= 0.01
		}
		return ds
	}
	tr, te := stretch(synth.Bands(11, 240, 3, 3, synth.BandsNoise)), stretch(synth.Bands(12, 120, 3, 3, synth.BandsNoise))
	writeLIBSVM(t, p("raw.svm"), tr)
	writeLIBSVM(t, p("rawtest.svm"), te)
	want := data.FitMinMax(tr, -1, 1)
	trs, tes := tr.Subset(seq(tr.N)), te.Subset(seq(te.N))
	if err := want.Apply(trs); err != nil {
		t.Fatal(err)
	}
	if err := want.Apply(tes); err != nil {
		t.Fatal(err)
	}
	writeLIBSVM(t, p("scaled.svm"), trs)
	writeLIBSVM(t, p("scaledtest.svm"), tes)
	args := []string{"--init", "30", "--sub", "3", "--passes", "1", "--quiet"}

	if code, _, e := runCLI(t, append([]string{"train", "--data", p("raw.svm"), "--model", p("auto.pgp")}, args...)...); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := runCLI(t, append([]string{"train", "--data", p("scaled.svm"), "--model", p("none.pgp"), "--scale", "none"}, args...)...); code != 0 {
		t.Fatal(e)
	}
	auto, err := model.Load(p("auto.pgp"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(auto.Scaling, want) || !strings.Contains(string(auto.Options), `"scale":"minmax"`) {
		t.Errorf("scaling %+v, options %s; want %+v and scale minmax", auto.Scaling, auto.Options, want)
	}
	_, a, e1 := runCLI(t, "predict", "--model", p("auto.pgp"), "--data", p("rawtest.svm"))
	_, b, e2 := runCLI(t, "predict", "--model", p("none.pgp"), "--data", p("scaledtest.svm"))
	if a == "" || a != b {
		t.Errorf("predictions differ (or are empty): %q %q", e1, e2)
	}
	_, c, _ := runCLI(t, "predict", "--model", p("auto.pgp"), "--data", p("scaledtest.svm"))
	if c == a {
		t.Error("the model's scaling changed no prediction")
	}

	// In [-1, 1] already: nothing to fit, the same model as --scale none.
	if code, _, e := runCLI(t, append([]string{"train", "--data", p("scaled.svm"), "--model", p("in.pgp")}, args...)...); code != 0 {
		t.Fatal(e)
	}
	in, err := model.Load(p("in.pgp"))
	if err != nil {
		t.Fatal(err)
	}
	none, _ := model.Load(p("none.pgp"))
	if in.Scaling != nil || string(in.Options) != string(none.Options) || in.Binaries[0].Post.LogZ != none.Binaries[0].Post.LogZ {
		t.Errorf("data in [-1, 1]: scaling %+v, options %s; want none and %s", in.Scaling, in.Options, none.Options)
	}

	// On a unit scale already (values beyond [-1, 1], standard
	// deviations within [1/4, 4]): left as they are too.
	unit := synth.Bands(11, 240, 3, 3, synth.BandsNoise)
	writeLIBSVM(t, p("unit.svm"), unit)
	if code, _, e := runCLI(t, append([]string{"train", "--data", p("unit.svm"), "--model", p("unit.pgp")}, args...)...); code != 0 {
		t.Fatal(e)
	}
	if um, err := model.Load(p("unit.pgp")); err != nil || um.Scaling != nil || unit.InRange(-1, 1) {
		t.Errorf("unit-scale data: scaling %+v (%v), in [-1, 1]: %v; want none, and data beyond [-1, 1]", um.Scaling, err, unit.InRange(-1, 1))
	}

	// Feature 3's factor is large: a huge test value overflows.
	big := te.Subset([]int{0, 1})
	big.Row(1)[2] = 1e307
	writeLIBSVM(t, p("big.svm"), big)
	if code, _, e := runCLI(t, "eval", "--model", p("auto.pgp"), "--data", p("big.svm")); code != 1 || !strings.Contains(e, "big.svm") || !strings.Contains(e, "example 2 feature 3") {
		t.Errorf("overflowing test value: code %d, %q", code, e)
	}

	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--scale", "zscore"}, "--scale"},
	} {
		code, _, e := runCLI(t, append(append([]string{"train", "--data", p("raw.svm"), "--model", p("x.pgp")}, args...), c.args...)...)
		if code != 2 || !strings.Contains(e, c.msg) {
			t.Errorf("%v: code %d, %q", c.args, code, e)
		}
		if _, err := os.Stat(p("x.pgp")); err == nil {
			t.Errorf("%v: wrote a model", c.args)
		}
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// resolveScale's auto: data in [-1, 1] or on a unit scale stay as they
// are, a feature's spread beyond [1/4, 4] (constant features aside) gets
// the svm-scale map, and --augment keeps the images.
func TestResolveScale(t *testing.T) {
	ds := func(cols ...[]float64) *data.Dataset {
		n, d := len(cols[0]), len(cols)
		x := make([]float64, n*d)
		for j, c := range cols {
			for i, v := range c {
				x[i*d+j] = v
			}
		}
		return &data.Dataset{N: n, D: d, X: x}
	}
	for _, c := range []struct {
		name    string
		ds      *data.Dataset
		augment bool
		want    string
	}{
		{"in [-1, 1]", ds([]float64{-1, 0, 1}, []float64{0.001, 0, 0.002}), false, ""},
		{"unit spread", ds([]float64{-3, 0, 3}, []float64{0, 1, 0}, []float64{7, 7, 7}), false, ""},
		{"wide spread", ds([]float64{-30, 0, 30}, []float64{0, 1, 0}), false, "minmax"},
		{"narrow spread", ds([]float64{-3, 0, 3}, []float64{0, 0.1, 0}), false, "minmax"},
		{"augment", ds([]float64{0, 255, 128}), true, ""},
	} {
		got, err := passgpfast.ResolveScale("auto", c.ds, c.augment)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
