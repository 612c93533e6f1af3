package main

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// multiEval is a multi-class classifier's test performance.
type multiEval struct {
	Err        float64    // multi-class test error %
	DigitErr   []float64  // per-class binary (one-vs-rest) test error %
	BrierMulti float64    // normalised multi-class Brier (calib.BrierMulti)
	BrierBin   float64    // mean over classes of the binary Brier score
	NLP        float64    // mean negative log predictive probability (multi-class)
	ECE        float64    // 15-bin top-label ECE of the normalised probabilities
	Prob       *mat.Dense // test probabilities, one column per class
	Classes    []float64  // the columns' classes
	PredTime   time.Duration
	// Cal scores the calibrated probabilities (calib.Calibration, fitted
	// on the training points' held-out latents only); nil without one.
	Cal *libsvm.Scores
}

// evalMulti predicts the test set with m and scores its raw probabilities
// and, when cal is not nil, the calibrated ones.
// One prediction pass gives both: the latents z, and q = Φ(z), which is
// what MultiClass.PredictProbTo computes from the same mean and variance.
func evalMulti(m *passgp.MultiClass, cal *calib.Calibration, te *Dataset) multiEval {
	n, k := te.N(), len(m.Classes)
	z, rho := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
	col, share := make([]float64, n), make([]float64, n)
	t := time.Now()
	for j, b := range m.Models {
		b.LatentShareTo(col, share, te.X)
		z.SetCol(j, col)
		rho.SetCol(j, share)
	}
	p := mat.NewDense(n, k, nil)
	p.Apply(func(_, _ int, v float64) float64 { return ep.Phi(v) }, z)
	ev := scoreMulti(p, m.Classes, te, time.Since(t))
	if cal != nil {
		ev.Cal = scoreCalibrated(cal, z, rho, m.Classes, te.Y)
	}
	return ev
}

// scoreCalibrated scores cal's probabilities of the latents z and
// prior-variance shares rho (n×K, one column per class) against the
// labels y as eval does: decision by the largest calibrated
// probability, Brier summed over the classes, NLP (Calibration.MeanNLL,
// exact in the tails) and top-label ECE.
func scoreCalibrated(cal *calib.Calibration, z, rho *mat.Dense, classes, y []float64) *libsvm.Scores {
	n, k := z.Dims()
	p := mat.NewDense(n, max(k, 2), nil)
	cal.ProbTo(p, z, rho)
	truth, top := make([]int, n), make([]int, n)
	cal.DecideTo(top, z, rho)
	conf, correct := make([]float64, n), make([]bool, n)
	var s libsvm.Scores
	for i := 0; i < n; i++ {
		truth[i] = indexOf(classes, y[i])
		row := p.RawRowView(i)
		for j, v := range row {
			if j == truth[i] {
				v--
			}
			s.Brier += v * v
		}
		conf[i], correct[i] = row[top[i]], top[i] == truth[i]
		if !correct[i] {
			s.Error++
		}
	}
	s.Error /= float64(n)
	s.Brier /= float64(n)
	s.NLP = cal.MeanNLL(z, rho, truth)
	s.ECE = calib.ECE(conf, correct, libsvm.ECEBins)
	return &s
}

// scoreMulti scores the classes' test probabilities p (n×len(classes),
// column j: q(y = classes[j] | x), one against the rest) as
// passgp.MultiClass.PredictTo decides: by the largest probability.
func scoreMulti(p *mat.Dense, classes []float64, te *Dataset, predTime time.Duration) multiEval {
	n := te.N()
	ev := multiEval{Prob: p, Classes: classes, PredTime: predTime}
	wrong := 0
	for i := 0; i < n; i++ {
		if classes[floats.MaxIdx(p.RawRowView(i))] != te.Y[i] {
			wrong++
		}
	}
	ev.Err = 100 * float64(wrong) / float64(n)
	col := make([]float64, n)
	for j, c := range classes {
		y := binaryLabels(te.Y, c)
		mat.Col(col, j, p)
		ev.DigitErr = append(ev.DigitErr, binaryErr(col, y))
		ev.BrierBin += calib.Brier(col, y) / float64(len(classes))
	}
	ev.BrierMulti = calib.BrierMulti(p, classes, te.Y)
	ev.NLP = calib.MeanNLPMulti(p, classes, te.Y)
	conf, correct := make([]float64, n), make([]bool, n)
	for i := 0; i < n; i++ {
		row := p.RawRowView(i)
		top := floats.MaxIdx(row)
		conf[i], correct[i] = row[top]/floats.Sum(row), classes[top] == te.Y[i]
	}
	ev.ECE = calib.ECE(conf, correct, libsvm.ECEBins)
	return ev
}

// binaryErr is the error % of probabilities q(+1|x) thresholded at 1/2.
func binaryErr(prob, y []float64) float64 {
	return 100 * calib.ProbErrorRate(prob, y)
}

// evalBinary predicts with one binary classifier: error %, Brier, time,
// the latents z (q = Φ(z), as Binary.PredictTo computes it) and the
// prior-variance shares rho (Binary.LatentShareTo).
func evalBinary(b *passgp.Binary, x *mat.Dense, y []float64) (errPct, brier float64, d time.Duration, z, rho []float64) {
	n, _ := x.Dims()
	z, rho, p := make([]float64, n), make([]float64, n), make([]float64, n)
	t := time.Now()
	b.LatentShareTo(z, rho, x)
	for i, v := range z {
		p[i] = ep.Phi(v)
	}
	return binaryErr(p, y), calib.Brier(p, y), time.Since(t), z, rho
}

// progress returns a Progress callback that logs when -v is set.
func (e *Env) progress(tag string) func(passgp.Progress) {
	if !e.Cfg.Verbose {
		return nil
	}
	return func(p passgp.Progress) {
		e.logf("%s class %s pass %d/%d batch %d/%d |A|=%d logZ=%.2f theta=%.3g elapsed %s",
			tag, p.Class, p.Pass+1, p.Passes, p.Batch+1, p.Batches, p.Active, p.LogZ, p.Theta, p.Elapsed.Round(time.Second))
	}
}

// seeds returns the seeds of the repetitions.
func (e *Env) seeds() []uint64 {
	s := make([]uint64, e.Cfg.Reps)
	for i := range s {
		s[i] = e.Cfg.Seed + uint64(i)
	}
	return s
}

// figSeeds returns the seeds of the figure sweeps' repetitions (the
// first --fig-reps of seeds).
func (e *Env) figSeeds() []uint64 { return e.seeds()[:e.Cfg.FigReps] }

// repsNote says how many repetitions a figure sweep averages.
func (e *Env) repsNote() string {
	c := e.Cfg
	return fmt.Sprintf("%d repetition(s) with seeds %d..%d (mean ± sd where more than one).", c.FigReps, c.Seed, c.Seed+uint64(c.FigReps)-1)
}

// skipIfLate reports (with a markdown note) whether a part must be skipped
// because the run's deadline (--deadline) is too close: it needs at least
// est of time.
func (e *Env) skipIfLate(ctx context.Context, what string, est time.Duration) (bool, string) {
	if ctx.Err() != nil {
		return true, fmt.Sprintf("_%s: not run (the run was stopped)._", what)
	}
	if e.Cfg.Deadline.IsZero() {
		return false, ""
	}
	if left := time.Until(e.Cfg.Deadline); left < est {
		return true, fmt.Sprintf("_%s: not run: only %s left before the run's deadline (%s) and it needs about %s._",
			what, left.Round(time.Second), e.Cfg.Deadline.Format("15:04 MST"), est.Round(time.Second))
	}
	return false, ""
}

func secs(d time.Duration) float64 { return d.Seconds() }

func ints2f(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

func meanOf(xs []float64) float64 { m, _ := meanStd(xs); return m }

func digitNames(cs []float64) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = fmt.Sprint(c)
	}
	return out
}

func nanSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}

// perDigitMeans returns the names of the runs that have errors and, for
// each, its per-class error averaged over repetitions: the series of a
// per-digit bar figure (paper Figures 3a and 8a).
func perDigitMeans(runs []*multiRuns) (names []string, vals [][]float64) {
	for _, r := range runs {
		if len(r.Errs) == 0 {
			continue
		}
		names = append(names, r.Name)
		var v []float64
		for _, e := range transpose(r.Errs) {
			v = append(v, meanOf(e))
		}
		vals = append(vals, v)
	}
	return names, vals
}

// transpose turns reps×classes into classes×reps.
func transpose(a [][]float64) [][]float64 {
	if len(a) == 0 {
		return nil
	}
	out := make([][]float64, len(a[0]))
	for j := range out {
		for i := range a {
			out[j] = append(out[j], a[i][j])
		}
	}
	return out
}
