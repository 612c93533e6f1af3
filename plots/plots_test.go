package plots

import (
	"bytes"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

func checkPNG(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if r := img.Bounds(); r.Dx() < 100 || r.Dy() < 100 {
		t.Fatalf("%s: image too small: %v", path, r)
	}
}

func TestFigures(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("PLOTS_OUT"); d != "" {
		dir = d
	}
	rng := rand.New(rand.NewPCG(1, 2))
	classes := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
	errs := make([]float64, 10)
	act := make([]int, 10)
	for i := range errs {
		errs[i] = 0.002 + 0.01*rng.Float64()
		act[i] = 100 + rng.IntN(300)
	}
	if err := PerClass(filepath.Join(dir, "per_class.png"), classes, errs, act); err != nil {
		t.Fatal(err)
	}
	checkPNG(t, filepath.Join(dir, "per_class.png"))

	if err := Lines(filepath.Join(dir, "error_vs_size.png"), "Test error vs active set size", "|A|", "error (%)",
		Series{Name: "PASS-GP", X: []float64{100, 200, 400, 800}, Y: []float64{8, 5.5, 4.8, 4.5}},
		Series{Name: "random", X: []float64{100, 200, 400, 800}, Y: []float64{15, 11, 9.7, 7}}); err != nil {
		t.Fatal(err)
	}
	checkPNG(t, filepath.Join(dir, "error_vs_size.png"))

	var corr, inc []float64
	var prob []float64
	var out []bool
	for range 2000 {
		p := rng.Float64()
		prob = append(prob, p)
		out = append(out, rng.Float64() < p)
		q := 1 - 0.5*rng.Float64()*rng.Float64()
		if rng.Float64() < 0.95 {
			corr = append(corr, q)
		} else {
			inc = append(inc, 0.3+0.5*rng.Float64())
		}
	}
	if err := Densities(filepath.Join(dir, "densities.png"), corr, inc, 0); err != nil {
		t.Fatal(err)
	}
	checkPNG(t, filepath.Join(dir, "densities.png"))
	if err := Reliability(filepath.Join(dir, "reliability.png"), prob, out, 10); err != nil {
		t.Fatal(err)
	}
	checkPNG(t, filepath.Join(dir, "reliability.png"))
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.png")
	nan := []float64{0.5, 0}
	nan[1] = nan[1] / nan[1]
	for name, err := range map[string]error{
		"perclass lengths": PerClass(p, []string{"a"}, []float64{1, 2}, []int{1}),
		"perclass empty":   PerClass(p, nil, nil, nil),
		"perclass nan":     PerClass(p, []string{"a", "b"}, nan, []int{1, 2}),
		"lines none":       Lines(p, "", "", ""),
		"lines lengths":    Lines(p, "", "", "", Series{X: []float64{1}, Y: nil}),
		"lines nan":        Lines(p, "", "", "", Series{X: []float64{1, 2}, Y: nan}),
		"densities empty":  Densities(p, nil, nil, 0),
		"densities range":  Densities(p, []float64{1.5}, nil, 0),
		"reliability len":  Reliability(p, []float64{0.5}, nil, 0),
		"reliability nan":  Reliability(p, nan, []bool{true, false}, 0),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := os.Stat(p); err == nil {
		t.Errorf("a failing call wrote %s", p)
	}
}

// TestRelevance: the relevance bar chart is written for a few and for
// many features (numeric ticks), and bad input is an error.
func TestRelevance(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []int{1, 8, 300} {
		rel := make([]float64, d)
		for j := range rel {
			rel[j] = 1 / float64(1+j%7)
		}
		path := filepath.Join(dir, "relevance.png")
		if err := Relevance(path, "Feature relevance", "relevance", rel); err != nil {
			t.Fatalf("d = %d: %v", d, err)
		}
		checkPNG(t, path)
	}
	for _, rel := range [][]float64{nil, {1, math.NaN()}} {
		if err := Relevance(filepath.Join(dir, "bad.png"), "x", "y", rel); err == nil {
			t.Errorf("Relevance(%v): no error", rel)
		}
	}
}
