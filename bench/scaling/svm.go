package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
	"github.com/passgp-fast/passgp-fast/passgp"
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

// score reads svm-predict -b 1's output ("labels l1 l2", then "label p1
// p2" per test point) and the test labels, and sets the error, the Brier
// score summed over both classes (as eval's), the NLP and the 15-bin ECE
// of the top-label confidence (passgp.ECE).
func score(r *Run, testF, pred string) error {
	labels, err := firstFields(testF)
	if err != nil {
		return err
	}
	f, err := os.Open(pred)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return fmt.Errorf("%s: empty", pred)
	}
	hdr := strings.Fields(sc.Text())
	if len(hdr) != 3 || hdr[0] != "labels" {
		return fmt.Errorf("%s: header %q, want \"labels a b\"", pred, sc.Text())
	}
	var conf []float64
	var correct []bool
	var nerr int
	var brier, nlp float64
	for i := 0; sc.Scan(); i++ {
		fl := strings.Fields(sc.Text())
		if len(fl) != 3 || i >= len(labels) {
			return fmt.Errorf("%s line %d: %q", pred, i+2, sc.Text())
		}
		p := [2]float64{}
		for j := range p {
			if p[j], err = strconv.ParseFloat(fl[1+j], 64); err != nil {
				return fmt.Errorf("%s line %d: %v", pred, i+2, err)
			}
		}
		truth := 0
		if labels[i] == hdr[2] {
			truth = 1
		}
		if fl[0] != labels[i] {
			nerr++
		}
		for j := range p {
			d := p[j]
			if j == truth {
				d--
			}
			brier += d * d
		}
		nlp -= math.Log(max(p[truth], 1e-300))
		top := 0
		if p[1] > p[0] {
			top = 1
		}
		conf = append(conf, p[top])
		correct = append(correct, top == truth)
	}
	n := float64(len(conf))
	if len(conf) != len(labels) {
		return fmt.Errorf("%s: %d predictions for %d test points", pred, len(conf), len(labels))
	}
	r.Error, r.Brier, r.NLP = float64(nerr)/n, brier/n, nlp/n
	r.ECE = passgp.ECE(conf, correct, 15)
	return sc.Err()
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
