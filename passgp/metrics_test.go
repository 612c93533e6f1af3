package passgp

import "testing"

// TestLatentDecisions: the error rate counts sign(z) against the label,
// and MultiClass's decision is the largest latent, where Φ(z) ties at 1
// for z > 8.3.
func TestLatentDecisions(t *testing.T) {
	if e := LatentErrorRate([]float64{-40, 0.3, -1.2, 9}, []float64{1, 1, -1, -1}); e != 0.5 {
		t.Errorf("error rate %v, want 0.5", e)
	}
	if got := ArgmaxLatent([]float64{9, 12, 3}); got != 1 {
		t.Errorf("ArgmaxLatent picked %d", got)
	}
}
