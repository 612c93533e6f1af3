package main

// LIBSVM (svm-train / svm-predict from Debian's libsvm-tools) run side by
// side on the same splits. It is an external peer: nothing here depends on
// our GP code, and when the binaries are missing the comparison is skipped
// with a note.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
)

// writeLIBSVM writes d in LIBSVM text format, omitting zero features.
// Values are written as the shortest decimal that parses back to the same
// float64, so the conversion is lossless.
func writeLIBSVM(w io.Writer, d *Dataset) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	buf := make([]byte, 0, 64)
	n, c := d.X.Dims()
	raw := d.X.RawMatrix()
	for i := 0; i < n; i++ {
		buf = strconv.AppendFloat(buf[:0], d.Y[i], 'g', -1, 64)
		bw.Write(buf)
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j, v := range row {
			if v == 0 {
				continue
			}
			buf = append(buf[:0], ' ')
			buf = strconv.AppendInt(buf, int64(j+1), 10)
			buf = append(buf, ':')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			bw.Write(buf)
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func writeLIBSVMFile(path string, d *Dataset) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeLIBSVM(fh, d); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// procRun is one external command's outcome.
type procRun struct {
	Out    string
	Wall   time.Duration
	CPU    time.Duration // user + system
	MaxRSS float64       // GiB
}

func runProc(ctx context.Context, name string, args ...string) (procRun, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var sb strings.Builder
	cmd.Stdout = &sb
	cmd.Stderr = &sb
	t := time.Now()
	err := cmd.Run()
	r := procRun{Out: sb.String(), Wall: time.Since(t)}
	if ps := cmd.ProcessState; ps != nil {
		r.CPU = ps.UserTime() + ps.SystemTime()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			r.MaxRSS = float64(ru.Maxrss) / (1 << 20) // KiB on Linux
		}
	}
	if err != nil {
		return r, fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, libsvm.Tail(r.Out, 300))
	}
	return r, nil
}

// SVMSpec says how to run LIBSVM on one split.
type SVMSpec struct {
	Train, Test *Dataset
	GridData    *Dataset  // data for the cross-validated grid (Train or a subsample of it)
	Cs, Gammas  []float64 // the grid
	Folds       int       // 5
	Parallel    int       // concurrent grid points
	CacheMB     int
	Note        string // how the grid was chosen (documented in results.md)
	// Prob also trains with Platt probabilities (svm-train -b 1, at the
	// chosen C and gamma; LIBSVM fits them by an internal 5-fold CV, so it
	// costs several plain trainings) and scores svm-predict -b 1's
	// probabilities as eval scores a model.
	Prob bool
}

// SVMResult is what the side-by-side run measured.
type SVMResult struct {
	Skipped    string // non-empty: why it did not run
	GridN      int
	GridPoints int
	GridWall   time.Duration
	GridCPU    time.Duration
	BestC      float64
	BestGamma  float64
	BestCV     float64 // CV accuracy %
	TrainWall  time.Duration
	PredWall   time.Duration
	Error      float64 // test error %
	NSV        int
	MaxRSS     float64 // GiB, largest of the child processes
	Note       string
	Grid       [][3]float64 // C, gamma, CV accuracy
	// With SVMSpec.Prob: the -b 1 training and prediction times and the
	// scores of its probabilities (nil when not run).
	ProbTrainWall, ProbPredWall time.Duration
	Prob                        *libsvm.Scores
}

// runSVM performs the grid search on spec.GridData, trains on spec.Train
// with the best (C, gamma) and predicts spec.Test.
func runSVM(ctx context.Context, spec SVMSpec) (*SVMResult, error) {
	res := &SVMResult{Note: spec.Note}
	if !libsvm.Available() {
		res.Skipped = libsvm.ErrNotFound.Error()
		return res, nil
	}
	dir, err := os.MkdirTemp("", "repro-svm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	trainF, testF, gridF := filepath.Join(dir, "train"), filepath.Join(dir, "test"), filepath.Join(dir, "grid")
	if err := writeLIBSVMFile(trainF, spec.Train); err != nil {
		return nil, err
	}
	if err := writeLIBSVMFile(testF, spec.Test); err != nil {
		return nil, err
	}
	if spec.GridData == spec.Train {
		gridF = trainF
	} else if err := writeLIBSVMFile(gridF, spec.GridData); err != nil {
		return nil, err
	}
	if spec.Folds == 0 {
		spec.Folds = 5
	}
	if spec.Parallel < 1 {
		spec.Parallel = 1
	}
	if spec.CacheMB == 0 {
		spec.CacheMB = 500
	}
	cache := strconv.Itoa(spec.CacheMB)
	res.GridN = spec.GridData.N()

	// Grid search: every (C, gamma) by k-fold CV on the grid data only.
	type point struct{ c, g float64 }
	var pts []point
	for _, c := range spec.Cs {
		for _, g := range spec.Gammas {
			pts = append(pts, point{c, g})
		}
	}
	res.GridPoints = len(pts)
	accs := make([]float64, len(pts))
	errs := make([]error, len(pts))
	var cpu time.Duration
	var mu sync.Mutex
	sem := make(chan struct{}, spec.Parallel)
	var wg sync.WaitGroup
	t0 := time.Now()
	for i, p := range pts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r, err := runProc(ctx, "svm-train", "-q", "-s", "0", "-t", "2", "-v", strconv.Itoa(spec.Folds),
				"-c", ffmt(p.c), "-g", ffmt(p.g), "-m", cache, gridF)
			mu.Lock()
			cpu += r.CPU
			res.MaxRSS = math.Max(res.MaxRSS, r.MaxRSS)
			mu.Unlock()
			if err == nil {
				accs[i], err = libsvm.CVAccuracy(r.Out)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	res.GridWall, res.GridCPU = time.Since(t0), cpu
	best := -1
	for i, p := range pts {
		if errs[i] != nil {
			return nil, errs[i]
		}
		res.Grid = append(res.Grid, [3]float64{p.c, p.g, accs[i]})
		// Ties go to the smaller C (cheaper, smoother) as listed first.
		if best < 0 || accs[i] > accs[best] {
			best = i
		}
	}
	res.BestC, res.BestGamma, res.BestCV = pts[best].c, pts[best].g, accs[best]

	modelF := filepath.Join(dir, "model")
	r, err := runProc(ctx, "svm-train", "-q", "-s", "0", "-t", "2", "-c", ffmt(res.BestC), "-g", ffmt(res.BestGamma),
		"-m", cache, trainF, modelF)
	if err != nil {
		return nil, err
	}
	res.TrainWall = r.Wall
	res.MaxRSS = math.Max(res.MaxRSS, r.MaxRSS)
	r, err = runProc(ctx, "svm-predict", testF, modelF, filepath.Join(dir, "pred"))
	if err != nil {
		return nil, err
	}
	res.PredWall = r.Wall
	res.MaxRSS = math.Max(res.MaxRSS, r.MaxRSS)
	correct, total, err := libsvm.PredictAccuracy(r.Out)
	if err != nil {
		return nil, err
	}
	res.Error = 100 * float64(total-correct) / float64(total)
	if mb, err := os.ReadFile(modelF); err == nil {
		if res.NSV, err = libsvm.TotalSV(string(mb)); err != nil {
			res.NSV = -1
		}
	}
	if spec.Prob {
		if err := runSVMProb(ctx, res, spec.Test.Y, trainF, testF, dir, cache); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// runSVMProb trains svm-train -b 1 at res's C and gamma and scores
// svm-predict -b 1's probabilities of the test points (labels y).
func runSVMProb(ctx context.Context, res *SVMResult, y []float64, trainF, testF, dir, cache string) error {
	modelF, predF := filepath.Join(dir, "model-b1"), filepath.Join(dir, "pred-b1")
	r, err := runProc(ctx, "svm-train", "-q", "-s", "0", "-t", "2", "-b", "1", "-c", ffmt(res.BestC), "-g", ffmt(res.BestGamma),
		"-m", cache, trainF, modelF)
	if err != nil {
		return err
	}
	res.ProbTrainWall = r.Wall
	res.MaxRSS = math.Max(res.MaxRSS, r.MaxRSS)
	if r, err = runProc(ctx, "svm-predict", "-b", "1", testF, modelF, predF); err != nil {
		return err
	}
	res.ProbPredWall = r.Wall
	res.MaxRSS = math.Max(res.MaxRSS, r.MaxRSS)
	f, err := os.Open(predF)
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := libsvm.ScoreProbabilities(f, "svm-predict -b 1 output", y)
	if err != nil {
		return err
	}
	res.Prob = &s
	return nil
}

// ffmt formats a number as LIBSVM's command line and the tables take it.
var ffmt = libsvm.Float

// pow2s returns 2^e for each exponent.
func pow2s(es ...float64) []float64 {
	out := make([]float64, len(es))
	for i, e := range es {
		out[i] = math.Pow(2, e)
	}
	return out
}

// svmMarkdown renders the side-by-side LIBSVM block of a section.
func svmMarkdown(m *md, r *SVMResult, task string) {
	m.h(3, "LIBSVM side by side ("+task+")")
	if r == nil {
		m.p("Not run.")
		return
	}
	if r.Skipped != "" {
		m.p("Skipped: %s.", r.Skipped)
		return
	}
	m.p("RBF SVM (`svm-train -s 0 -t 2`, LIBSVM's own one-vs-one for multi-class), same train/test split. "+
		"C and gamma were chosen by %d-point grid with 5-fold cross-validation on %d training examples only (%s); "+
		"the search's time is reported separately from the final training.", r.GridPoints, r.GridN, r.Note)
	var t Table
	t.Header = []string{"measured here", "value"}
	t.Row("grid search wall time (s)", f(r.GridWall.Seconds(), 1))
	t.Row("grid search CPU time (s, all processes)", f(r.GridCPU.Seconds(), 1))
	t.Row("chosen C, gamma", ffmt(r.BestC)+", "+ffmt(r.BestGamma))
	t.Row("best CV accuracy (%)", f(r.BestCV, 2))
	t.Row("final training time (s)", f(r.TrainWall.Seconds(), 1))
	t.Row("prediction time (s)", f(r.PredWall.Seconds(), 1))
	t.Row("test error (%)", f(r.Error, 2))
	t.Row("support vectors", strconv.Itoa(r.NSV))
	if p := r.Prob; p != nil {
		t.Row("with Platt probabilities (-b 1): training time (s)", f(r.ProbTrainWall.Seconds(), 1))
		t.Row("with -b 1: prediction time (s)", f(r.ProbPredWall.Seconds(), 1))
		t.Row("with -b 1: test error (%)", f(100*p.Error, 2))
		t.Row("with -b 1: Brier (summed over classes)", f(p.Brier, 4))
		t.Row("with -b 1: NLP", f(p.NLP, 4))
		t.Row("with -b 1: ECE, 15 bins (%)", f(100*p.ECE, 2))
	}
	t.Row("peak RSS of svm-train/predict (GiB)", f(r.MaxRSS, 2))
	m.table(&t)
	var g Table
	g.Header = []string{"C", "gamma", "CV accuracy (%)"}
	for _, p := range r.Grid {
		g.Row(ffmt(p[0]), ffmt(p[1]), f(p[2], 2))
	}
	m.p("Grid (measured here):")
	m.table(&g)
}
