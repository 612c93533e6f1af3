package bench

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// The USPS experiments below are measurements, not tests: they run the
// paper's USPS setting (Section 6.1) once and log per-digit figures. Run
// them with -benchtime 1x, e.g.
//
//	go test -run '^$' -bench USPSExperiment -benchtime 1x -v ./bench
//
// BenchmarkUSPSExperiment runs the multi-class experiment; PASSGP_METHOD
// selects the method (default passgp), PASSGP_SEED the seed,
// PASSGP_AUGMENT=4 adds the invariance stage, and the other PASSGP_*
// variables below override single options.
func BenchmarkUSPSExperiment(b *testing.B) {
	tr, te := loadUSPS(b)
	xtr, ytr, xte, yte := tr.Dense(), tr.Y, te.Dense(), te.Y
	m := passgp.PASSGP
	if s := os.Getenv("PASSGP_METHOD"); s != "" {
		var err error
		if m, err = passgp.ParseMethod(s); err != nil {
			b.Fatal(err)
		}
	}
	o := &passgp.Options{Method: m}
	if s := os.Getenv("PASSGP_SEED"); s != "" {
		v, _ := strconv.Atoi(s)
		o.Seed = uint64(v)
	}
	if s := os.Getenv("PASSGP_AUGMENT"); s != "" {
		if shifts, _ := strconv.Atoi(s); shifts != 0 {
			o.Augment = &passgp.Augmentation{Shifts: shifts, ImageW: 16, ImageH: 16}
		}
	}
	if s := os.Getenv("PASSGP_THETA"); s != "" {
		var th []float64
		for _, f := range strings.Split(s, ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				b.Fatal(err)
			}
			th = append(th, v)
		}
		o.Kernel = passgp.DefaultKernel(m, 256).WithParams(th)
		o.FixedTheta = os.Getenv("PASSGP_FIXED") != ""
	}
	if s := os.Getenv("PASSGP_PINC"); s != "" {
		o.PInc, _ = strconv.ParseFloat(s, 64)
	}
	if s := os.Getenv("PASSGP_PDEL"); s != "" {
		o.PDel, _ = strconv.ParseFloat(s, 64)
	}
	if s := os.Getenv("PASSGP_TOL"); s != "" {
		o.EP.Tol, _ = strconv.ParseFloat(s, 64)
	}
	if s := os.Getenv("PASSGP_HYPEVERY"); s != "" {
		o.HypEvery, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("PASSGP_UPPER1"); s != "" {
		v, _ := strconv.ParseFloat(s, 64)
		o.Upper = []float64{v, 1e6, 1e6}
	}
	if s := os.Getenv("PASSGP_PASSES"); s != "" {
		o.Passes, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("PASSGP_M"); s != "" {
		o.M, _ = strconv.Atoi(s)
	}
	b.ResetTimer()
	start := time.Now()
	res, err := passgp.TrainMulti(context.Background(), xtr, ytr, o)
	if err != nil {
		b.Fatal(err)
	}
	el := time.Since(start)
	b.StopTimer()
	n, _ := xte.Dims()
	pred := make([]float64, n)
	res.Model.PredictTo(pred, xte)
	prob := mat.NewDense(n, len(res.Model.Classes), nil)
	res.Model.PredictProbTo(prob, xte)
	for j, r := range res.PerClass {
		var hyp, epT, sc time.Duration
		for _, bs := range r.Batches {
			hyp += bs.HypTime
			epT += bs.EPTime
			sc += bs.ScoreTime
		}
		col := mat.Col(nil, j, prob)
		yb := make([]float64, n)
		e := 0
		for i := range yb {
			yb[i] = -1
			if yte[i] == res.Model.Classes[j] {
				yb[i] = 1
			}
			if (col[i] > 0.5) != (yb[i] > 0) {
				e++
			}
		}
		b.Logf("digit %v: |A| %4d  error %.2f%%  brier %.4f  time %v (hyp %v, EP %v, score %v)  θ %.4g  evals %d",
			res.Model.Classes[j], len(r.Model.Active), 100*float64(e)/float64(n), calib.Brier(col, yb),
			r.Elapsed.Round(time.Millisecond), hyp.Round(time.Millisecond), epT.Round(time.Millisecond), sc.Round(time.Millisecond),
			r.Model.Kernel.Params(), r.Evals)
	}
	// Alternative decision rule for comparison: argmax of the latent mean.
	nc := len(res.Model.Classes)
	lm := mat.NewDense(n, nc, nil)
	for j, bin := range res.Model.Models {
		mv := make([]float64, n)
		bin.PredictMeanVarTo(mv, nil, xte)
		lm.SetCol(j, mv)
	}
	pm := make([]float64, n)
	for i := range pm {
		pm[i] = res.Model.Classes[floats.MaxIdx(lm.RawRowView(i))]
	}
	b.Logf("argmax of the latent mean: error %.2f%%", 100*calib.ErrorRate(pm, yte))
	// Kinds of multi-class errors: the true class's q above 1/2 but beaten
	// by another class's (competing positives), only wrong classes above
	// 1/2, or no class above 1/2.
	var compete, wrongPos, none int
	for i := range pred {
		if pred[i] == yte[i] {
			continue
		}
		row := prob.RawRowView(i)
		truePos, anyPos := false, false
		for j, q := range row {
			if q > 0.5 {
				anyPos = true
				if res.Model.Classes[j] == yte[i] {
					truePos = true
				}
			}
		}
		switch {
		case truePos:
			compete++
		case anyPos:
			wrongPos++
		default:
			none++
		}
	}
	b.Logf("multi-class errors: %d with the true class above 1/2 but beaten, %d with only wrong classes above 1/2, %d with no class above 1/2", compete, wrongPos, none)
	sizes := make([]int, len(res.PerClass))
	for j, r := range res.PerClass {
		sizes[j] = len(r.Model.Active)
	}
	b.Logf("%v: multi-class error %.2f%%, Brier %.4f, NLP %.4f, active sizes %v (max %d), training %v",
		m, 100*calib.ErrorRate(pred, yte), calib.BrierMulti(prob, res.Model.Classes, yte), calib.MeanNLPMulti(prob, res.Model.Classes, yte),
		sizes, slices.Max(sizes), el.Round(time.Millisecond))
	b.ReportMetric(100*calib.ErrorRate(pred, yte), "error%")
	b.ReportMetric(calib.BrierMulti(prob, res.Model.Classes, yte), "brier")
	b.ReportMetric(float64(slices.Max(sizes)), "max|A|")
}

// oneVsRest returns the ±1 labels of class c against the rest.
func oneVsRest(b testing.TB, y []float64, c float64) []float64 {
	l, err := data.BinaryLabels(y, &c)
	if err != nil {
		b.Fatal(err)
	}
	return l
}

// BenchmarkUSPSTrajectory logs PASS-GP's per-batch θ, optimiser
// evaluations, |A|, inclusions and deletions on one USPS digit
// (PASSGP_USPS_DIGIT, default 0), and how far the final θ is from a
// converged optimum on the final active set (PASSGP_SEED as above).
func BenchmarkUSPSTrajectory(b *testing.B) {
	digit, _ := strconv.ParseFloat(os.Getenv("PASSGP_USPS_DIGIT"), 64)
	tr, te := loadUSPS(b)
	xtr, xte := tr.Dense(), te.Dense()
	y, yt := oneVsRest(b, tr.Y, digit), oneVsRest(b, te.Y, digit)
	o := &passgp.Options{Threads: 1}
	if s := os.Getenv("PASSGP_SEED"); s != "" {
		v, _ := strconv.Atoi(s)
		o.Seed = uint64(v)
	}
	res, err := passgp.Train(context.Background(), xtr, y, o)
	if err != nil {
		b.Fatal(err)
	}
	for _, bs := range res.Batches {
		b.Logf("pass %d batch %d: |A| %4d +%3d -%3d  evals %2d  logZ %9.3f  θ %.4g", bs.Pass, bs.Batch, bs.Active, bs.Included, bs.Deleted, bs.HypEvals, bs.LogZ, bs.Theta)
	}
	n, _ := xte.Dims()
	prob := make([]float64, n)
	res.Model.PredictTo(prob, xte)
	b.Logf("final θ %.4g  logZ %.3f  test error %.2f%%", res.Model.Kernel.Params(), res.Model.Post.LogZ, 100*calib.ProbErrorRate(prob, yt))
	// A converged optimisation on the final active set (ep's default
	// bounds), for comparison.
	r, err := ep.Optimize(res.Model.Kernel, res.Model.X, res.Model.Y, &res.Model.Post.Sites,
		&ep.OptimizeOptions{MaxEvals: 200})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("converged on final A: θ %.4g  logZ %.3f  (%d evals, %s)", r.Kernel.Params(), r.Post.LogZ, r.Evals, r.Status)
}

// BenchmarkIVMUSPSDigit times IVM (paper setting: SE+lin, M = 300, Passes
// alternations of selection and θ optimisation) on one USPS digit
// (PASSGP_USPS_DIGIT, default 0).
func BenchmarkIVMUSPSDigit(b *testing.B) {
	digit, _ := strconv.ParseFloat(os.Getenv("PASSGP_USPS_DIGIT"), 64)
	tr, _ := loadUSPS(b)
	xtr := tr.Dense()
	y := oneVsRest(b, tr.Y, digit)
	o := &passgp.Options{Method: passgp.IVM, Threads: 1}
	start := time.Now()
	res, err := passgp.Train(context.Background(), xtr, y, o)
	if err != nil {
		b.Fatal(err)
	}
	for _, bs := range res.Batches {
		b.Logf("pass %d: selection %v, θ %v (%d evals) logZ %.3f -> %.4g", bs.Pass, bs.ScoreTime.Round(time.Millisecond), bs.HypTime.Round(time.Millisecond), bs.HypEvals, bs.LogZ, bs.Theta)
	}
	b.Logf("IVM digit %v: %v", digit, time.Since(start).Round(time.Millisecond))
}
