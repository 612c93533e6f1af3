package libsvm

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoreFile: LIBSVM's -b 1 output is scored as eval scores a model
// (Brier summed over both classes, NLP, top-label ECE), whatever the order
// of svm-predict's label header.
func TestScoreFile(t *testing.T) {
	dir := t.TempDir()
	test := filepath.Join(dir, "test")
	pred := filepath.Join(dir, "pred")
	os.WriteFile(test, []byte("1 1:0\n-1 1:1\n-1 1:2\n1 1:3\n"), 0o644)
	os.WriteFile(pred, []byte("labels -1 1\n1 0.2 0.8\n-1 0.9 0.1\n1 0.4 0.6\n-1 0.7 0.3\n"), 0o644)
	r, err := ScoreFile(test, pred)
	if err != nil {
		t.Fatal(err)
	}
	// Points: truth 1 (p 0.8), -1 (0.9), -1 (0.4), 1 (0.3).
	brier := (2*0.2*0.2 + 2*0.1*0.1 + 2*0.6*0.6 + 2*0.7*0.7) / 4
	nlp := -(math.Log(0.8) + math.Log(0.9) + math.Log(0.4) + math.Log(0.3)) / 4
	if r.Error != 0.5 || math.Abs(r.Brier-brier) > 1e-12 || math.Abs(r.NLP-nlp) > 1e-12 {
		t.Errorf("error %v brier %v nlp %v; want 0.5 %v %v", r.Error, r.Brier, r.NLP, brier, nlp)
	}
	os.WriteFile(pred, []byte("labels 1 -1\n1 0.8 0.2\n-1 0.1 0.9\n1 0.6 0.4\n-1 0.3 0.7\n"), 0o644)
	r2, err := ScoreFile(test, pred)
	if err != nil {
		t.Fatal(err)
	}
	if r2 != r {
		t.Errorf("header order changed the scores: %+v against %+v", r2, r)
	}
	os.WriteFile(pred, []byte("labels -1 1\n1 0.2 0.8\n"), 0o644)
	if _, err := ScoreFile(test, pred); err == nil || !strings.Contains(err.Error(), "1 predictions for 4") {
		t.Errorf("short prediction file: %v", err)
	}
}
