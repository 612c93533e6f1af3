package passgpfast

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// TestLatentMetrics: metrics from the latent keep their precision where
// the probability forms round (a confident mistake has its true NLP, not
// the 690.8 of a clamp at 1e-300) and agree with them elsewhere.
func TestLatentMetrics(t *testing.T) {
	z := []float64{-40, 0.3, -1.2, 9}
	y := []float64{1, 1, -1, -1}
	// -log Φ(-40) = 40²/2 + log(40·√(2π)) + O(1/40²).
	want0 := 800 + math.Log(40*math.Sqrt(2*math.Pi))
	nlp := latentNLP(z[:1], y[:1])
	if math.Abs(nlp-want0) > 1e-3*want0 || nlp < 700 {
		t.Errorf("NLP of a confident mistake = %v, want about %v", nlp, want0)
	}
	prob := make([]float64, len(z))
	for i, v := range z {
		prob[i] = ep.Phi(v)
	}
	if d := math.Abs(latentNLP(z[1:3], y[1:3]) - calib.MeanNLP(prob[1:3], y[1:3])); d > 1e-12 {
		t.Errorf("latentNLP and MeanNLP differ by %v away from rounding", d)
	}
	// z = 9 for a negative point: 1 - Φ(9) rounds to 0, Φ(-9) = 1.1e-19.
	if got, want := latentNLP(z[3:], y[3:]), -math.Log(1.1285884059538e-19); math.Abs(got-want) > 1e-6 || calib.MeanNLP(prob[3:], y[3:]) < 690 {
		t.Errorf("z = 9, y = -1: latentNLP %v (want %v), MeanNLP %v", got, want, calib.MeanNLP(prob[3:], y[3:]))
	}
	if d := math.Abs(latentBrier(z, y) - calib.Brier(prob, y)); d > 1e-12 {
		t.Errorf("latentBrier and Brier differ by %v", d)
	}
	if e := passgp.LatentErrorRate(z, y); e != 0.5 {
		t.Errorf("error rate %v, want 0.5", e)
	}
	// Multi-class: hand-computed normalised probabilities.
	zm := mat.NewDense(2, 3, []float64{0.5, -1, 2, -30, -35, -38})
	truth := []int{0, 1}
	var want float64
	for i, t := range truth {
		row := zm.RawRowView(i)
		var s float64
		for _, v := range row {
			s += ep.Phi(v)
		}
		want -= math.Log(ep.Phi(row[t]) / s)
	}
	want /= 2
	if got := latentNLPMulti(zm, truth); math.Abs(got-want) > 1e-9*math.Abs(want) {
		t.Errorf("latentNLPMulti = %v, want %v", got, want)
	}
	// Φ(z) ties at 1 for z > 8.3; the latent decides.
	if got := passgp.ArgmaxLatent([]float64{9, 12, 3}); got != 1 {
		t.Errorf("ArgmaxLatent picked %d", got)
	}
}
