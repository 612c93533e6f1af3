package passgp

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/ep"
)

// loadUSPS returns the USPS train and test sets, skipping the test when
// ../shared/data is absent.
func loadUSPS(t testing.TB) (xtr *mat.Dense, ytr []float64, xte *mat.Dense, yte []float64) {
	dir := filepath.Join("..", "..", "shared", "data")
	if _, err := os.Stat(filepath.Join(dir, "usps.train.bz2")); err != nil {
		t.Skip("USPS not found in ../shared/data")
	}
	tr, err := data.Load(filepath.Join(dir, "usps.train.bz2"), data.Options{Dim: 256})
	if err != nil {
		t.Fatal(err)
	}
	te, err := data.Load(filepath.Join(dir, "usps.test.bz2"), data.Options{Dim: 256})
	if err != nil {
		t.Fatal(err)
	}
	return tr.Dense(), tr.Y, te.Dense(), te.Y
}

// oneVsRest returns the ±1 labels of class c against the rest.
func oneVsRest(t testing.TB, y []float64, c float64) []float64 {
	b, err := data.BinaryLabels(y, &c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUSPS runs the paper's USPS multi-class experiment (Section 6.1).
// It is slow and gated: PASSGP_USPS=1 go test -run USPS -v ./passgp
// PASSGP_METHOD selects the method (default passgp), PASSGP_SEED the seed,
// PASSGP_AUGMENT=4 adds the invariance stage.
func TestUSPS(t *testing.T) {
	if os.Getenv("PASSGP_USPS") == "" {
		t.Skip("set PASSGP_USPS=1 to run the USPS experiment")
	}
	xtr, ytr, xte, yte := loadUSPS(t)
	m := PASSGP
	if s := os.Getenv("PASSGP_METHOD"); s != "" {
		var err error
		if m, err = ParseMethod(s); err != nil {
			t.Fatal(err)
		}
	}
	o := &Options{Method: m}
	if s := os.Getenv("PASSGP_SEED"); s != "" {
		v, _ := strconv.Atoi(s)
		o.Seed = uint64(v)
	}
	if s := os.Getenv("PASSGP_AUGMENT"); s != "" {
		o.Augment, _ = strconv.Atoi(s)
		o.ImageW, o.ImageH = 16, 16
	}
	if s := os.Getenv("PASSGP_EVALS"); s != "" {
		o.HypMaxEvals, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("PASSGP_FINALEVALS"); s != "" {
		o.FinalHypEvals, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("PASSGP_THETA"); s != "" {
		var th []float64
		for _, f := range strings.Split(s, ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			th = append(th, v)
		}
		o.Kernel = DefaultKernel(m, 256).WithParams(th)
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
	if s := os.Getenv("PASSGP_HYPPASSES"); s != "" {
		o.HypPasses, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("PASSGP_UPPER1"); s != "" {
		v, _ := strconv.ParseFloat(s, 64)
		o.Upper = []float64{v, 1e6, 1e6}
	}
	if s := os.Getenv("PASSGP_PRIOR1"); s != "" {
		// "t1,sd": log t1 ~ N(log t1, sd²), the other components flat.
		var v [2]float64
		for i, f := range strings.SplitN(s, ",", 2) {
			v[i], _ = strconv.ParseFloat(f, 64)
		}
		o.Prior = make([]ep.LogNormal, len(DefaultKernel(m, 256).Params()))
		o.Prior[0] = ep.LogNormal{Mean: math.Log(v[0]), SD: v[1]}
	}
	if s := os.Getenv("PASSGP_PASSES"); s != "" {
		o.Passes, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("PASSGP_M"); s != "" {
		o.M, _ = strconv.Atoi(s)
	}
	start := time.Now()
	res, err := TrainMulti(context.Background(), xtr, ytr, o)
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(start)
	n, _ := xte.Dims()
	pred := make([]float64, n)
	res.Model.PredictTo(pred, xte)
	prob := mat.NewDense(n, len(res.Model.Classes), nil)
	res.Model.PredictProbTo(prob, xte)
	for j, r := range res.PerClass {
		var hyp, epT, sc time.Duration
		for _, b := range r.Batches {
			hyp += b.HypTime
			epT += b.EPTime
			sc += b.ScoreTime
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
		t.Logf("digit %v: |A| %4d  error %.2f%%  brier %.4f  time %v (hyp %v, EP %v, score %v)  θ %.4g  evals %d",
			res.Model.Classes[j], len(r.Model.Active), 100*float64(e)/float64(n), Brier(col, yb),
			r.Elapsed.Round(time.Millisecond), hyp.Round(time.Millisecond), epT.Round(time.Millisecond), sc.Round(time.Millisecond),
			r.Model.Kernel.Params(), r.Evals)
	}
	// Alternative decision rule for comparison: argmax of the latent mean.
	nc := len(res.Model.Classes)
	lm := mat.NewDense(n, nc, nil)
	for j, b := range res.Model.Models {
		mv := make([]float64, n)
		b.PredictMeanVarTo(mv, nil, xte)
		lm.SetCol(j, mv)
	}
	pm := make([]float64, n)
	for i := range pm {
		pm[i] = res.Model.Classes[floats.MaxIdx(lm.RawRowView(i))]
	}
	t.Logf("argmax of the latent mean: error %.2f%%", 100*ErrorRate(pm, yte))
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
	t.Logf("multi-class errors: %d with the true class above 1/2 but beaten, %d with only wrong classes above 1/2, %d with no class above 1/2", compete, wrongPos, none)
	sizes := make([]int, len(res.PerClass))
	for j, r := range res.PerClass {
		sizes[j] = len(r.Model.Active)
	}
	t.Logf("%v: multi-class error %.2f%%, Brier %.4f, NLP %.4f, active sizes %v (max %d), training %v",
		m, 100*ErrorRate(pred, yte), BrierMulti(prob, res.Model.Classes, yte), MeanNLPMulti(prob, res.Model.Classes, yte),
		sizes, slices.Max(sizes), el.Round(time.Millisecond))
}
