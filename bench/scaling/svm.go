package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
)

// The grid: C and γ around LIBSVM's default γ = 1/d = 0.05 for d = 20.
var (
	gridC     = []float64{1, 10, 100}
	gridGamma = []float64{0.002, 0.01, 0.05, 0.25}
)

// runSVM picks C and γ by 5-fold cross-validation on the first gridSub
// training points (the rows are i.i.d., so they are a random subsample),
// trains svm-train -b 1 on all of them and scores svm-predict -b 1's
// probabilities on the test file.
func runSVM(ctx context.Context, trainF, testF, dir string, gridSub int, timeout time.Duration) (Run, error) {
	r := Run{Tool: "libsvm"}
	sub := filepath.Join(dir, "grid.libsvm")
	if err := head(trainF, sub, gridSub); err != nil {
		return r, err
	}
	t0 := time.Now()
	best, bc, bg := -1.0, 0.0, 0.0
	for _, c := range gridC {
		for _, g := range gridGamma {
			var out strings.Builder
			if _, _, err := timed(ctx, &out, "svm-train", "-q", "-v", "5", "-c", ffmt(c), "-g", ffmt(g), sub); err != nil {
				return r, err
			}
			a, err := libsvm.CVAccuracy(out.String())
			if err != nil {
				return r, err
			}
			if a > best {
				best, bc, bg = a, c, g
			}
		}
	}
	r.GridSeconds = time.Since(t0).Seconds()
	r.Setting = fmt.Sprintf("5-fold CV on %d points over C in %v, gamma in %v: C = %g, gamma = %g; then -b 1 on all", gridSub, gridC, gridGamma, bc, bg)
	model := filepath.Join(dir, "svm.model")
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	el, rss, err := timed(tctx, io.Discard, "svm-train", "-q", "-b", "1", "-c", ffmt(bc), "-g", ffmt(bg), trainF, model)
	r.Seconds, r.MaxRSSGiB = r.GridSeconds+el.Seconds(), rss
	if err != nil {
		if tctx.Err() != nil {
			return r, fmt.Errorf("svm-train -b 1 did not finish within %v", timeout)
		}
		return r, err
	}
	pred := filepath.Join(dir, "svm.pred")
	if _, _, err := timed(ctx, io.Discard, "svm-predict", "-b", "1", testF, model, pred); err != nil {
		return r, err
	}
	if r.Active, err = supportVectors(model); err != nil {
		return r, err
	}
	return r, score(&r, testF, pred)
}

var ffmt = libsvm.Float

// head copies the first n lines of src to dst.
func head(src, dst string, n int) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	w := bufio.NewWriter(out)
	for i := 0; i < n && sc.Scan(); i++ {
		w.WriteString(sc.Text())
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// supportVectors reads the number of support vectors from a model file.
func supportVectors(model string) (int, error) {
	b, err := os.ReadFile(model)
	if err != nil {
		return 0, err
	}
	n, err := libsvm.TotalSV(string(b))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", model, err)
	}
	return n, nil
}

// score scores svm-predict -b 1's output pred against the labels of the
// test file (libsvm.ScoreProbabilities: as eval scores a model).
func score(r *Run, testF, pred string) error {
	fields, err := firstFields(testF)
	if err != nil {
		return err
	}
	truth := make([]float64, len(fields))
	for i, v := range fields {
		if truth[i], err = strconv.ParseFloat(v, 64); err != nil {
			return fmt.Errorf("%s line %d: label %q: %v", testF, i+1, v, err)
		}
	}
	f, err := os.Open(pred)
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := libsvm.ScoreProbabilities(f, pred, truth)
	r.Error, r.Brier, r.NLP, r.ECE = s.Error, s.Brier, s.NLP, s.ECE
	return err
}

func firstFields(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if fl := strings.Fields(sc.Text()); len(fl) > 0 {
			out = append(out, fl[0])
		}
	}
	return out, sc.Err()
}
