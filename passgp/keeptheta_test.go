package passgp

import (
	"math"
	"testing"
)

// TestKeptTheta: the geometric mean of the optimised batches' θ, skipping
// batches that did not optimise; nil where none did.
func TestKeptTheta(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stats []BatchStats
		want  []float64
	}{
		{"none", []BatchStats{{Theta: []float64{1, 2}}}, nil},
		{"one", []BatchStats{{HypEvals: 3, Theta: []float64{4, 0.5}}}, []float64{4, 0.5}},
		{"mean of logs", []BatchStats{{HypEvals: 9, Theta: []float64{1, 8}}, {Theta: []float64{1e6, 1e6}}, {HypEvals: 3, Theta: []float64{100, 2}}},
			[]float64{10, 4}},
	} {
		got := keptTheta(tc.stats)
		if (got == nil) != (tc.want == nil) || len(got) != len(tc.want) {
			t.Fatalf("%s: %v, want %v", tc.name, got, tc.want)
		}
		for j := range got {
			if math.Abs(got[j]-tc.want[j]) > 1e-12*tc.want[j] {
				t.Errorf("%s: θ[%d] = %v, want %v", tc.name, j, got[j], tc.want[j])
			}
		}
	}
}
