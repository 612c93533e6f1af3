package libsvm

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/passgp-fast/passgp-fast/calib"
)

// Scores are the test-set figures of svm-predict -b 1's probabilities,
// computed as passgp-fast's eval computes a model's: the error of the
// predicted labels, the Brier score Σ_c (p_c − [y = c])² summed over all
// classes (2(1 − p_y)² for a binary task), the mean negative log
// probability of the true class (NLP) and the 15-bin expected calibration
// error of the top-label confidence (calib.ECE).
type Scores struct {
	Error, Brier, NLP, ECE float64
}

// ECEBins is the number of confidence bins of Scores.ECE (eval's).
const ECEBins = 15

// ScoreProbabilities reads svm-predict -b 1's output from r (a header
// "labels l_1 ... l_K", then one line "label p_1 ... p_K" per test point)
// and scores it against the true labels truth. Labels are compared as
// numbers: svm-predict writes the header with %d and the predictions with
// %g. name labels errors.
func ScoreProbabilities(r io.Reader, name string, truth []float64) (Scores, error) {
	var s Scores
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return s, fmt.Errorf("%s: %w", name, err)
		}
		return s, fmt.Errorf("%s: empty", name)
	}
	hdr := strings.Fields(sc.Text())
	if len(hdr) < 3 || hdr[0] != "labels" {
		return s, fmt.Errorf("%s line 1: header %q, want \"labels l_1 ... l_K\" with K >= 2", name, sc.Text())
	}
	k := len(hdr) - 1
	labels := make([]float64, k)
	for j, h := range hdr[1:] {
		v, err := strconv.ParseFloat(h, 64)
		if err != nil {
			return s, fmt.Errorf("%s line 1: label %q: %v", name, h, err)
		}
		labels[j] = v
	}
	p := make([]float64, k)
	conf := make([]float64, 0, len(truth))
	correct := make([]bool, 0, len(truth))
	var nerr int
	for i := 0; sc.Scan(); i++ {
		line := i + 2
		fl := strings.Fields(sc.Text())
		if len(fl) != k+1 {
			return s, fmt.Errorf("%s line %d: %d fields, want %d", name, line, len(fl), k+1)
		}
		if i >= len(truth) {
			return s, fmt.Errorf("%s line %d: more predictions than the %d test points", name, line, len(truth))
		}
		pred, err := strconv.ParseFloat(fl[0], 64)
		if err != nil {
			return s, fmt.Errorf("%s line %d: label %q: %v", name, line, fl[0], err)
		}
		t, top := -1, 0
		for j := range p {
			if p[j], err = strconv.ParseFloat(fl[1+j], 64); err != nil || !(p[j] >= 0 && p[j] <= 1) {
				return s, fmt.Errorf("%s line %d: probability %q is not in [0, 1]", name, line, fl[1+j])
			}
			if labels[j] == truth[i] {
				t = j
			}
			if p[j] > p[top] {
				top = j
			}
		}
		if t < 0 {
			return s, fmt.Errorf("%s line %d: true label %v is not among the model's labels %v", name, line, truth[i], labels)
		}
		if pred != truth[i] {
			nerr++
		}
		for j, v := range p {
			if j == t {
				v--
			}
			s.Brier += v * v
		}
		s.NLP -= math.Log(math.Max(p[t], 1e-300))
		conf = append(conf, p[top])
		correct = append(correct, top == t)
	}
	if err := sc.Err(); err != nil {
		return s, fmt.Errorf("%s: %w", name, err)
	}
	if len(conf) != len(truth) {
		return s, fmt.Errorf("%s: %d predictions for %d test points", name, len(conf), len(truth))
	}
	n := float64(len(conf))
	s.Error, s.Brier, s.NLP = float64(nerr)/n, s.Brier/n, s.NLP/n
	s.ECE = calib.ECE(conf, correct, ECEBins)
	return s, nil
}
