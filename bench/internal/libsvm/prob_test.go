package libsvm

import (
	"math"
	"strings"
	"testing"
)

// TestScoreProbabilities: svm-predict -b 1's output is scored as eval
// scores a model (Brier summed over the classes, NLP, top-label ECE),
// whatever the order of its label header, for two and more classes.
func TestScoreProbabilities(t *testing.T) {
	truth := []float64{1, -1, -1, 1}
	a := "labels -1 1\n1 0.2 0.8\n-1 0.9 0.1\n1 0.4 0.6\n-1 0.7 0.3\n"
	s, err := ScoreProbabilities(strings.NewReader(a), "a", truth)
	if err != nil {
		t.Fatal(err)
	}
	// True-class probabilities 0.8, 0.9, 0.4, 0.3.
	brier := (2*0.2*0.2 + 2*0.1*0.1 + 2*0.6*0.6 + 2*0.7*0.7) / 4
	nlp := -(math.Log(0.8) + math.Log(0.9) + math.Log(0.4) + math.Log(0.3)) / 4
	// Top-label confidences 0.8 (right), 0.9 (right), 0.6 (wrong), 0.7
	// (wrong), one per 15-bin bucket: ECE = mean |conf − correct|.
	ece := (0.2 + 0.1 + 0.6 + 0.7) / 4
	if s.Error != 0.5 || math.Abs(s.Brier-brier) > 1e-12 || math.Abs(s.NLP-nlp) > 1e-12 || math.Abs(s.ECE-ece) > 1e-12 {
		t.Errorf("got %+v; want error 0.5, Brier %v, NLP %v, ECE %v", s, brier, nlp, ece)
	}
	b := "labels 1 -1\n1 0.8 0.2\n-1 0.1 0.9\n1 0.6 0.4\n-1 0.3 0.7\n"
	if s2, err := ScoreProbabilities(strings.NewReader(b), "b", truth); err != nil || s2 != s {
		t.Errorf("header order changed the scores: %+v (%v) against %+v", s2, err, s)
	}

	// Three classes; svm-predict prints labels as %g (2 for 2.0).
	c := "labels 0 1 2\n2 0.1 0.2 0.7\n0 0.5 0.3 0.2\n"
	s3, err := ScoreProbabilities(strings.NewReader(c), "c", []float64{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	brier3 := ((0.01 + 0.04 + 0.09) + (0.25 + 0.49 + 0.04)) / 2
	nlp3 := -(math.Log(0.7) + math.Log(0.3)) / 2
	if s3.Error != 0.5 || math.Abs(s3.Brier-brier3) > 1e-12 || math.Abs(s3.NLP-nlp3) > 1e-12 {
		t.Errorf("three classes: %+v; want error 0.5, Brier %v, NLP %v", s3, brier3, nlp3)
	}

	for _, tc := range []struct{ in, want string }{
		{"", "empty"},
		{"label -1 1\n", "header"},
		{"labels 1\n", "header"},
		{"labels -1 1\n1 0.2 0.8\n", "1 predictions for 4"},
		{"labels -1 1\n1 0.2\n", "line 2: 2 fields"},
		{"labels -1 1\n1 0.2 x\n", "line 2: probability"},
		{"labels -1 1\n1 0.2 1.5\n", "not in [0, 1]"},
		{"labels -1 2\n1 0.2 0.8\n", "true label 1 is not among"},
		{"labels -1 1\n1 .2 .8\n1 .2 .8\n1 .2 .8\n1 .2 .8\n1 .2 .8\n", "line 6: more predictions"},
	} {
		if _, err := ScoreProbabilities(strings.NewReader(tc.in), "p", truth); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.want)
		}
	}
}
