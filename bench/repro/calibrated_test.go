package main

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/synth"
)

// TestScoreCalibrated checks the calibrated columns against the
// definitions, computed here from Calibration.ProbTo alone: the decision
// is the largest calibrated probability, Brier sums over the classes, NLP
// is the mean −log p of the true class, ECE is that of the top label.
func TestScoreCalibrated(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name    string
		cal     *calib.Calibration
		classes []float64
	}{
		{"binary", &calib.Calibration{A: 1.7, B: []float64{-0.3}, Eps: 0.01, Balance: []float64{0.2}}, []float64{-1, 1}},
		{"three classes", &calib.Calibration{A: 2.1, B: []float64{0.2, -0.1, 0.4}, Eps: 0.02, Balance: []float64{0.5, 0.3, 0.2}}, []float64{0, 1, 2}},
	} {
		n, k := 400, len(tc.cal.B)
		z, rho := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
		y := make([]float64, n)
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				z.Set(i, j, 2*rng.NormFloat64())
				rho.Set(i, j, rng.Float64())
			}
			y[i] = tc.classes[rng.IntN(len(tc.classes))]
		}
		got := scoreCalibrated(tc.cal, z, rho, tc.classes, y)

		p := mat.NewDense(n, len(tc.classes), nil)
		tc.cal.ProbTo(p, z, rho)
		var want libsvm.Scores
		conf, correct := make([]float64, n), make([]bool, n)
		for i := 0; i < n; i++ {
			row := p.RawRowView(i)
			top := floats.MaxIdx(row)
			for j, c := range tc.classes {
				d := row[j]
				if c == y[i] {
					d--
					want.NLP -= math.Log(row[j])
				}
				want.Brier += d * d
			}
			conf[i], correct[i] = row[top], tc.classes[top] == y[i]
			if !correct[i] {
				want.Error++
			}
		}
		want.Error /= float64(n)
		want.Brier /= float64(n)
		want.NLP /= float64(n)
		want.ECE = calib.ECE(conf, correct, 15)
		if got.Error != want.Error || math.Abs(got.Brier-want.Brier) > 1e-12 || math.Abs(got.NLP-want.NLP) > 1e-9 || math.Abs(got.ECE-want.ECE) > 1e-12 {
			t.Errorf("%s: got %+v, want %+v", tc.name, *got, want)
		}
		// Random labels: about the chance error, and a sane Brier.
		if chance := 1 - 1/float64(len(tc.classes)); math.Abs(got.Error-chance) > 0.1 || !(got.Brier > 0 && got.Brier < 2) {
			t.Errorf("%s: error %v (chance %v), Brier %v", tc.name, got.Error, chance, got.Brier)
		}
	}
}

// TestRunSVMProb runs LIBSVM with -b 1 on a small generated task (when
// svm-train is installed) and checks that its probabilities are scored.
func TestRunSVMProb(t *testing.T) {
	if !libsvm.Available() {
		t.Skip(libsvm.ErrNotFound)
	}
	task := synth.Task{D: 5, Relevant: 3, Classes: 3, Flip: 0.05}
	gen := func(n int, seed uint64) *Dataset {
		d, err := synth.Dataset(task, n, seed)
		if err != nil {
			t.Fatal(err)
		}
		return &Dataset{Name: "synth", X: d.Dense(), Y: d.Y}
	}
	tr, te := gen(300, 1), gen(200, 2)
	res, err := runSVM(context.Background(), SVMSpec{Train: tr, Test: te, GridData: tr, Folds: 3,
		Cs: []float64{1}, Gammas: []float64{0.5}, Prob: true})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Prob
	if p == nil {
		t.Fatal("no -b 1 scores")
	}
	// Bayes error of this task is well under 30%; the -b 1 decision is
	// the largest Platt probability, close to the plain SVM's.
	if p.Error > 0.3 || math.Abs(100*p.Error-res.Error) > 5 || !(p.Brier > 0 && p.Brier < 0.6) || !(p.NLP > 0 && p.NLP < 1) || !(p.ECE >= 0 && p.ECE < 0.2) {
		t.Errorf("plain error %.2f%%; -b 1 scores %+v", res.Error, *p)
	}
	t.Logf("plain error %.2f%%; -b 1 scores %+v", res.Error, *p)
	if res.ProbTrainWall <= 0 {
		t.Errorf("-b 1 training time %v", res.ProbTrainWall)
	}
}
