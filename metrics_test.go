package passgpfast

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// TestEvalMetricsFromLatent: eval's figures are the library's, computed
// from the latents: a confident mistake has its true NLP (about 804.6 for
// z = -40 on a positive point, not the 690.8 of a probability clamped at
// 1e-300), and one-vs-rest decisions where every Φ(z) rounds to 1 follow
// the largest latent.
func TestEvalMetricsFromLatent(t *testing.T) {
	bin := func() *passgp.Binary { return &passgp.Binary{} }
	// -log Φ(-40) = 40²/2 + log(40·√(2π)) + O(1/40²).
	want40 := 800 + math.Log(40*math.Sqrt(2*math.Pi))

	t.Run("binary", func(t *testing.T) {
		m := &model.Model{Mode: model.Binary, Classes: []float64{-1, 1}, Binaries: []*passgp.Binary{bin()}}
		z := mat.NewDense(3, 1, []float64{-40, 0.3, 9})
		truth := []int{1, 1, 0} // classes +1, +1, -1: the first and last are confident mistakes
		prob := mat.NewDense(3, 2, nil)
		m.ProbFromLatent(prob, z, nil)
		r := computeMetrics(m, prob, &Predictions{Z: z, CZ: z}, truth)
		y := []float64{1, 1, -1}
		zc := mat.Col(nil, 0, z)
		if want := latentNLP(zc, y); math.Abs(r.NLP-want) > 1e-12*want {
			t.Errorf("NLP %v, library %v", r.NLP, want)
		}
		// Mean over the points: -log Φ(-40), -log Φ(0.3), -log Φ(-9).
		want := (want40 - ep.LogPhi(0.3) - ep.LogPhi(-9)) / 3
		if math.Abs(r.NLP-want) > 1e-3*want || r.NLP*3 < 700 {
			t.Errorf("NLP %v, want about %v (not clamped)", r.NLP, want)
		}
		// Brier counts both columns: twice the binary score.
		if want := 2 * latentBrier(zc, y); math.Abs(r.Brier-want) > 1e-15 {
			t.Errorf("Brier %v, want %v", r.Brier, want)
		}
		if want := passgp.LatentErrorRate(zc, y); math.Abs(r.Error-want) > 1e-15 {
			t.Errorf("error %v, want %v", r.Error, want)
		}
	})

	t.Run("one-vs-rest", func(t *testing.T) {
		m := &model.Model{Mode: model.OneVsRest, Classes: []float64{0, 1, 2}, Binaries: []*passgp.Binary{bin(), bin(), bin()}}
		// Row 0: Φ(9) and Φ(12) both round to 1; the latent decides class 1.
		// Row 1: true class 0 at z = -40 against a confident class 2.
		z := mat.NewDense(2, 3, []float64{9, 12, 3, -40, -5, 6})
		truth := []int{1, 0}
		prob := mat.NewDense(2, 3, nil)
		m.ProbFromLatent(prob, z, nil)
		r := computeMetrics(m, prob, &Predictions{Z: z, CZ: z}, truth)
		if r.Confusion[1][1] != 1 || r.Confusion[0][2] != 1 || r.Error != 0.5 {
			t.Errorf("confusion %v, error %v: want row 0 decided as class 1, row 1 as class 2", r.Confusion, r.Error)
		}
		if want := latentNLPMulti(z, truth); math.Abs(r.NLP-want) > 1e-12*want || r.NLP*2 < 700 {
			t.Errorf("NLP %v, library %v", r.NLP, want)
		}
		for c := range m.Binaries {
			zc, y := mat.Col(nil, c, z), binaryTargets(m, truth, c)
			if got, want := r.BinaryNLP[c], latentNLP(zc, y); got != want {
				t.Errorf("class %d: binary NLP %v, library %v", c, got, want)
			}
			if got, want := r.BinaryBrier[c], latentBrier(zc, y); got != want {
				t.Errorf("class %d: binary Brier %v, library %v", c, got, want)
			}
		}
		// Class 0's classifier at z = -40 on its own point.
		if r.BinaryNLP[0]*2 < want40 {
			t.Errorf("class 0 binary NLP %v, want about %v", r.BinaryNLP[0], want40/2)
		}
	})
}
