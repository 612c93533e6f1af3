package synth

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/passgp-fast/passgp-fast/data"
)

// TestBayesErrorClosedForm: two equal classes at distance Sep·√2 have the
// clean Bayes error Φ(-Sep/√2); with flips ε it is ε + (1-2ε)Φ(-Sep/√2).
func TestBayesErrorClosedForm(t *testing.T) {
	for _, c := range []struct{ sep, flip float64 }{{3, 0}, {1, 0.05}, {2.5, 0.1}, {6, 0.2}} {
		noisy, clean, err := Task{D: 10, Sep: c.sep, Flip: c.flip}.BayesError()
		if err != nil {
			t.Fatal(err)
		}
		want := bigPhi(-c.sep / math.Sqrt2)
		if math.Abs(clean-want) > 1e-10 || math.Abs(noisy-(c.flip+(1-2*c.flip)*want)) > 1e-10 {
			t.Errorf("sep %v flip %v: Bayes error %v (clean %v), want %v", c.sep, c.flip, noisy, clean, want)
		}
	}
	// Imbalanced binary: threshold τ = log(π0/π1)/(Sep√2) on the
	// difference direction, error π1 Φ(τ - a) + π0 Φ(-τ - a), a = Sep/√2.
	p1, sep := 0.1, 2.0
	_, clean, _ := Task{D: 4, Sep: sep, Priors: []float64{1 - p1, p1}}.BayesError()
	a := sep / math.Sqrt2
	tau := math.Log((1-p1)/p1) / (2 * a)
	want := p1*bigPhi(tau-a) + (1-p1)*bigPhi(-tau-a)
	if math.Abs(clean-want) > 1e-10 {
		t.Errorf("imbalanced: clean Bayes error %v, want %v", clean, want)
	}
}

// TestBayesErrorMonteCarlo: the Bayes rule's error on 200,000 generated
// rows is within 4 standard errors of BayesError, for the observed and
// the true labels (the seeds are fixed, so the test is deterministic).
func TestBayesErrorMonteCarlo(t *testing.T) {
	const n = 200000
	for _, task := range []Task{
		{D: 20, Relevant: 5, Sep: 2, Flip: 0.05},
		{D: 20, Relevant: 5, Sep: 2.5, Flip: 0.05, Priors: []float64{0.9, 0.1}},
		{Classes: 3, D: 10, Relevant: 6, Sep: 2, Flip: 0.1},
		{Classes: 4, D: 8, Relevant: 7, Sep: 3, Flip: 0.02, Priors: []float64{4, 3, 2, 1}},
	} {
		noisy, clean, err := task.BayesError()
		if err != nil {
			t.Fatal(err)
		}
		g, err := NewGenerator(task, 42)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, task.D)
		var en, ec int
		for i := 0; i < n; i++ {
			c, o := g.Next(x)
			b := task.Bayes(x)
			if b != o {
				en++
			}
			if b != c {
				ec++
			}
		}
		for _, v := range []struct {
			name      string
			got, want float64
		}{{"noisy", float64(en) / n, noisy}, {"clean", float64(ec) / n, clean}} {
			se := math.Sqrt(v.want * (1 - v.want) / n)
			if math.Abs(v.got-v.want) > 4*se {
				t.Errorf("%+v: %s error %.5f, analytic %.5f (4 SE = %.5f)", task, v.name, v.got, v.want, 4*se)
			}
		}
		t.Logf("%+v: Bayes error %.4f (clean %.4f), measured %.4f (%.4f)", task, noisy, clean, float64(en)/n, float64(ec)/n)
	}
}

// TestImbalance: the class and observed-label rates are as requested.
func TestImbalance(t *testing.T) {
	const n = 100000
	task := Task{D: 3, Relevant: 2, Flip: 0.05, Priors: []float64{0.9, 0.1}}
	ds, err := Dataset(task, n, 7)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := NewGenerator(task, 7)
	x := make([]float64, 3)
	var pos, obs int
	for i := 0; i < n; i++ {
		c, o := g.Next(x)
		pos += c
		if ds.Y[i] == 1 {
			obs++
		}
		if ds.Y[i] != task.Label(o) {
			t.Fatal("Dataset and Generator disagree")
		}
	}
	for _, v := range []struct {
		name      string
		got, want float64
	}{{"true positives", float64(pos) / n, 0.1}, {"observed +1", float64(obs) / n, 0.1*0.95 + 0.9*0.05}} {
		if se := math.Sqrt(v.want * (1 - v.want) / n); math.Abs(v.got-v.want) > 4*se {
			t.Errorf("%s rate %.4f, want %.4f", v.name, v.got, v.want)
		}
	}
}

// TestSeeds: a seed reproduces its rows, a shorter run is a prefix of a
// longer one, another seed gives other rows, and WriteLIBSVM writes what
// Dataset returns (read back bit for bit).
func TestSeeds(t *testing.T) {
	task := Task{Classes: 3, D: 6, Relevant: 4, Flip: 0.1}
	a, _ := Dataset(task, 500, 3)
	b, _ := Dataset(task, 500, 3)
	c, _ := Dataset(task, 200, 3)
	d, _ := Dataset(task, 500, 4)
	if !slices.Equal(a.X, b.X) || !slices.Equal(a.Y, b.Y) {
		t.Error("same seed, different rows")
	}
	if !slices.Equal(a.X[:200*6], c.X) || !slices.Equal(a.Y[:200], c.Y) {
		t.Error("a shorter run is not a prefix of a longer one")
	}
	if slices.Equal(a.X, d.X) {
		t.Error("different seeds, same rows")
	}
	var buf bytes.Buffer
	if err := WriteLIBSVM(&buf, task, 500, 3); err != nil {
		t.Fatal(err)
	}
	r, err := data.ReadLIBSVM(&buf, "synth", data.LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.N != 500 || r.D != 6 || !slices.Equal(r.X, a.X) || !slices.Equal(r.Y, a.Y) {
		t.Errorf("LIBSVM round trip: %d×%d, rows equal %v, labels equal %v", r.N, r.D, slices.Equal(r.X, a.X), slices.Equal(r.Y, a.Y))
	}
}

func TestValidate(t *testing.T) {
	for _, task := range []Task{
		{D: 0},
		{Classes: 1, D: 3},
		{D: 3, Relevant: 4},
		{Classes: 3, D: 5, Relevant: 2},
		{D: 3, Sep: -1},
		{D: 3, Flip: 0.5},
		{Classes: 3, D: 3, Flip: 0.7},
		{D: 3, Priors: []float64{1}},
		{D: 3, Priors: []float64{1, 0}},
	} {
		if task.Validate() == nil {
			t.Errorf("%+v: no error", task)
		}
	}
	if err := (Task{D: 3}).Validate(); err != nil {
		t.Error(err)
	}
}
