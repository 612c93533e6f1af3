package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/passgp-fast/passgp-fast/synth"
)

// TestScore: LIBSVM's -b 1 output is scored as eval scores a model
// (Brier summed over both classes, NLP, top-label ECE), whatever the order
// of svm-predict's label header.
func TestScore(t *testing.T) {
	dir := t.TempDir()
	test := filepath.Join(dir, "test")
	pred := filepath.Join(dir, "pred")
	os.WriteFile(test, []byte("1 1:0\n-1 1:1\n-1 1:2\n1 1:3\n"), 0o644)
	os.WriteFile(pred, []byte("labels -1 1\n1 0.2 0.8\n-1 0.9 0.1\n1 0.4 0.6\n-1 0.7 0.3\n"), 0o644)
	var r Run
	if err := score(&r, test, pred); err != nil {
		t.Fatal(err)
	}
	// Points: truth 1 (p 0.8), -1 (0.9), -1 (0.4), 1 (0.3).
	brier := (2*0.2*0.2 + 2*0.1*0.1 + 2*0.6*0.6 + 2*0.7*0.7) / 4
	nlp := -(math.Log(0.8) + math.Log(0.9) + math.Log(0.4) + math.Log(0.3)) / 4
	if r.Error != 0.5 || math.Abs(r.Brier-brier) > 1e-12 || math.Abs(r.NLP-nlp) > 1e-12 {
		t.Errorf("error %v brier %v nlp %v; want 0.5 %v %v", r.Error, r.Brier, r.NLP, brier, nlp)
	}
	os.WriteFile(pred, []byte("labels 1 -1\n1 0.8 0.2\n-1 0.1 0.9\n1 0.6 0.4\n-1 0.3 0.7\n"), 0o644)
	var r2 Run
	if err := score(&r2, test, pred); err != nil {
		t.Fatal(err)
	}
	if r2 != r {
		t.Errorf("header order changed the scores: %+v against %+v", r2, r)
	}
	os.WriteFile(pred, []byte("labels -1 1\n1 0.2 0.8\n"), 0o644)
	if err := score(&r, test, pred); err == nil || !strings.Contains(err.Error(), "1 predictions for 4") {
		t.Errorf("short prediction file: %v", err)
	}
}

// TestWrite: the report files are written and the table has a row per run.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	runs := []Run{{Tool: "passgp-fast", N: 1000, Seconds: 1.5, Active: 100, Error: 0.07},
		{Tool: "libsvm", N: 1000, Seconds: 2, GridSeconds: 1, Active: 300, Error: 0.068},
		{Tool: "passgp-fast", N: 10000, Seconds: 9, Active: 900, Error: 0.069},
		{Tool: "libsvm", N: 10000, Seconds: 900, Note: "did not finish"}}
	if err := write(dir, synth.Task{D: 20, Relevant: 5, Flip: 0.05}, 0.065, runs); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "scaling.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(md), "\n| ") != 1+len(runs) || !strings.Contains(string(md), "did not finish") {
		t.Errorf("table:\n%s", md)
	}
	if fi, err := os.Stat(filepath.Join(dir, "scaling.png")); err != nil || fi.Size() == 0 {
		t.Errorf("plot: %v", err)
	}
}
