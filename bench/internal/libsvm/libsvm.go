// Package libsvm reads what LIBSVM's command-line tools (Debian's
// libsvm-tools: svm-train, svm-predict) print and write, and runs them
// and passgp-fast the same way, for the benchmarks that compare the two
// (bench/repro, bench/scaling, bench/mlbench): a cross-validated grid and
// svm-train -b 1 (GridFit), passgp-fast's train and eval (TrainEval),
// timed processes (Timed).
package libsvm

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
)

var (
	reCV  = regexp.MustCompile(`Cross Validation Accuracy = ([0-9.eE+-]+)%`)
	reAcc = regexp.MustCompile(`Accuracy = ([0-9.eE+-]+)% \((\d+)/(\d+)\)`)
	reSVs = regexp.MustCompile(`(?m)^total_sv (\d+)`)
)

// ErrNotFound says that the tools are not on PATH.
var ErrNotFound = fmt.Errorf("svm-train/svm-predict not found on PATH (Debian package libsvm-tools)")

// Available reports whether svm-train and svm-predict are on PATH.
func Available() bool {
	_, e1 := exec.LookPath("svm-train")
	_, e2 := exec.LookPath("svm-predict")
	return e1 == nil && e2 == nil
}

// CVAccuracy extracts svm-train -v's cross-validation accuracy in percent.
func CVAccuracy(out string) (float64, error) {
	m := reCV.FindStringSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("no cross-validation accuracy in svm-train output %q", Tail(out, 200))
	}
	return strconv.ParseFloat(m[1], 64)
}

// PredictAccuracy extracts svm-predict's accuracy: correct and total.
func PredictAccuracy(out string) (correct, total int, err error) {
	m := reAcc.FindStringSubmatch(out)
	if m == nil {
		return 0, 0, fmt.Errorf("no accuracy in svm-predict output %q", Tail(out, 200))
	}
	correct, _ = strconv.Atoi(m[2])
	total, _ = strconv.Atoi(m[3])
	return correct, total, nil
}

// TotalSV extracts the number of support vectors from the text of a
// model file (its total_sv header line).
func TotalSV(model string) (int, error) {
	m := reSVs.FindStringSubmatch(model)
	if m == nil {
		return 0, fmt.Errorf("no total_sv line in the model file")
	}
	return strconv.Atoi(m[1])
}

// Float formats a parameter for the command line (shortest exact form).
func Float(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Tail returns the last n bytes of s, marked with "..." when cut.
func Tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
