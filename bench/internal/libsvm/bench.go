package libsvm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Workspace prepares a benchmark's run: it makes the output directory
// out, takes work as the scratch directory (a new temporary one named
// after prefix when work is empty, which cleanup removes) and builds
// ./cmd/passgp-fast into it (run from the module root), returning the
// scratch directory and the binary's path.
func Workspace(ctx context.Context, work, out, prefix string) (dir, bin string, cleanup func(), err error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", "", nil, err
	}
	dir, cleanup = work, func() {}
	if dir == "" {
		if dir, err = os.MkdirTemp("", prefix); err != nil {
			return "", "", nil, err
		}
		cleanup = func() { os.RemoveAll(dir) }
	}
	bin = filepath.Join(dir, "passgp-fast")
	if b, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/passgp-fast").CombinedOutput(); err != nil {
		cleanup()
		return "", "", nil, fmt.Errorf("building the CLI: %v\n%s", err, b)
	}
	return dir, bin, cleanup, nil
}

// Eval is what `passgp-fast eval --json` reports that the benchmarks
// keep.
type Eval struct {
	Error, Brier, NLP, ECE float64
	ActiveSize             []int `json:"active_size"`
	// HeldOutError is the held-out estimate of the test error that train
	// printed (its "held-out estimate" line), -1 when it printed none.
	HeldOutError float64 `json:"-"`
}

// heldOutRe matches train's held-out estimate line: the error rate and,
// where printed, the count of errors and of points.
var heldOutRe = regexp.MustCompile(`(?m)^held-out estimate on .*: error ([0-9.]+)%( \((\d+) of (\d+)\))?`)

// HeldOutError returns the error of train's held-out estimate line in
// out (from its count of errors where printed, which the two decimals of
// the percentage round), or -1.
func HeldOutError(out string) float64 {
	m := heldOutRe.FindStringSubmatch(out)
	if m == nil {
		return -1
	}
	if m[2] != "" {
		k, err1 := strconv.Atoi(m[3])
		n, err2 := strconv.Atoi(m[4])
		if err1 == nil && err2 == nil && n > 0 {
			return float64(k) / float64(n)
		}
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return -1
	}
	return v / 100
}

// TrainEval runs `bin train --data trainF --model model` with args
// appended, timed (Timed), then `bin eval` of the model on testF, and
// returns the training's wall time, its peak resident memory in GiB and
// the evaluation.
func TrainEval(ctx context.Context, bin, trainF, testF, model string, args ...string) (time.Duration, float64, Eval, error) {
	var e Eval
	var out strings.Builder
	el, rss, err := Timed(ctx, &out, bin, append([]string{"train", "--data", trainF, "--model", model, "--quiet"}, args...)...)
	if err != nil {
		return el, rss, e, err
	}
	var ev strings.Builder
	if _, _, err := Timed(ctx, &ev, bin, "eval", "--model", model, "--data", testF, "--json"); err != nil {
		return el, rss, e, err
	}
	if err := json.Unmarshal([]byte(ev.String()), &e); err != nil {
		return el, rss, e, fmt.Errorf("eval --json: %v", err)
	}
	e.HeldOutError = HeldOutError(out.String())
	return el, rss, e, nil
}

// Fit is what GridFit measured.
type Fit struct {
	C, Gamma, CVAccuracy float64 // the chosen setting and its CV accuracy (%)
	GridSeconds          float64 // Tune's wall time
	TrainSeconds         float64 // svm-train -b 1's wall time
	MaxRSSGiB            float64 // svm-train -b 1's peak resident memory
	SVs                  int
	Scores
}

// GridFit picks C and γ by Tune over cs × gammas on the first sub lines of
// the LIBSVM file trainF, trains svm-train -b 1 on all of it (given up
// after timeout; 0: no limit), predicts testF with svm-predict -b 1 and
// scores its probabilities (ScoreFile). Its files go to dir. On an error
// the times measured so far are set.
func GridFit(ctx context.Context, trainF, testF, dir string, sub int, cs, gammas []float64, timeout time.Duration) (Fit, error) {
	var f Fit
	grid := filepath.Join(dir, "grid.libsvm")
	if err := Head(trainF, grid, sub); err != nil {
		return f, err
	}
	t0 := time.Now()
	var err error
	if f.C, f.Gamma, f.CVAccuracy, err = Tune(ctx, grid, cs, gammas); err != nil {
		return f, err
	}
	f.GridSeconds = time.Since(t0).Seconds()
	tctx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		tctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	model := filepath.Join(dir, "svm.model")
	el, rss, err := Timed(tctx, io.Discard, "svm-train", "-q", "-b", "1", "-c", Float(f.C), "-g", Float(f.Gamma), trainF, model)
	f.TrainSeconds, f.MaxRSSGiB = el.Seconds(), rss
	if err != nil {
		if tctx.Err() != nil {
			return f, fmt.Errorf("svm-train -b 1 did not finish within %v", timeout)
		}
		return f, err
	}
	pred := filepath.Join(dir, "svm.pred")
	if _, _, err := Timed(ctx, io.Discard, "svm-predict", "-b", "1", testF, model, pred); err != nil {
		return f, err
	}
	if f.SVs, err = SupportVectors(model); err != nil {
		return f, err
	}
	f.Scores, err = ScoreFile(testF, pred)
	return f, err
}
