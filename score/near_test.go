package score

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestRowMax: rowMax is the largest element for every length and
// position, −Inf for none.
func TestRowMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	if !math.IsInf(rowMax(nil), -1) {
		t.Fatalf("empty: %v", rowMax(nil))
	}
	for n := 1; n <= 13; n++ {
		s := make([]float64, n)
		for k := range n {
			for i := range s {
				s[i] = rng.NormFloat64()
			}
			s[k] = 10
			if got := rowMax(s); got != 10 || got != floats.Max(s) {
				t.Fatalf("n %d, largest at %d: %v", n, k, got)
			}
		}
	}
}
