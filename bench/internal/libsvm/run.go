package libsvm

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Timed runs a command with its standard output to stdout and returns its
// wall time and peak resident memory in GiB (what /usr/bin/time -f "%e
// %M" reports; 0 where the system does not say).
func Timed(ctx context.Context, stdout io.Writer, name string, args ...string) (time.Duration, float64, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	t0 := time.Now()
	err := cmd.Run()
	el := time.Since(t0)
	if err != nil {
		return el, 0, fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, Tail(stderr.String(), 400))
	}
	rss := 0.0
	if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = float64(u.Maxrss) * 1024 / (1 << 30) // Linux: KiB
	}
	return el, rss, nil
}

// Tune picks C and γ from the grid by svm-train's 5-fold cross-validation
// accuracy on the LIBSVM file sub (the first of equal accuracies, in the
// order of cs, then gammas), and returns them with that accuracy (%).
func Tune(ctx context.Context, sub string, cs, gammas []float64) (c, gamma, acc float64, err error) {
	acc = -1
	for _, cv := range cs {
		for _, g := range gammas {
			var out strings.Builder
			if _, _, err := Timed(ctx, &out, "svm-train", "-q", "-v", "5", "-c", Float(cv), "-g", Float(g), sub); err != nil {
				return 0, 0, 0, err
			}
			a, err := CVAccuracy(out.String())
			if err != nil {
				return 0, 0, 0, err
			}
			if a > acc {
				acc, c, gamma = a, cv, g
			}
		}
	}
	return c, gamma, acc, nil
}

// Head copies the first n lines of src to dst.
func Head(src, dst string, n int) error {
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

// SupportVectors reads the number of support vectors from a model file.
func SupportVectors(model string) (int, error) {
	b, err := os.ReadFile(model)
	if err != nil {
		return 0, err
	}
	n, err := TotalSV(string(b))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", model, err)
	}
	return n, nil
}

// ScoreFile scores svm-predict -b 1's output file pred against the labels
// of the LIBSVM file testF (ScoreProbabilities: as eval scores a model).
func ScoreFile(testF, pred string) (Scores, error) {
	fields, err := firstFields(testF)
	if err != nil {
		return Scores{}, err
	}
	truth := make([]float64, len(fields))
	for i, v := range fields {
		if truth[i], err = strconv.ParseFloat(v, 64); err != nil {
			return Scores{}, fmt.Errorf("%s line %d: label %q: %v", testF, i+1, v, err)
		}
	}
	f, err := os.Open(pred)
	if err != nil {
		return Scores{}, err
	}
	defer f.Close()
	return ScoreProbabilities(f, pred, truth)
}

// firstFields returns the first field of every non-empty line of path.
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
		if fs := strings.Fields(sc.Text()); len(fs) > 0 {
			out = append(out, fs[0])
		}
	}
	return out, sc.Err()
}
