package main

import (
	"math"
	"testing"
)

func TestSummarise(t *testing.T) {
	m, sd := summarise([]Run{{Error: 0.1, Brier: 0.2, Seconds: 1}, {Error: 0.3, Brier: 0.2, Seconds: 3}})
	if math.Abs(m.Error-0.2) > 1e-15 || m.Seconds != 2 || math.Abs(sd.Error-math.Sqrt(0.02)) > 1e-15 || sd.Brier != 0 {
		t.Errorf("mean %+v, sd %+v", m, sd)
	}
	if m, sd := summarise([]Run{{Error: 0.1}}); m.Error != 0.1 || sd.Error != 0 {
		t.Errorf("one run: mean %+v, sd %+v", m, sd)
	}
}

func TestHeldOutWithin(t *testing.T) {
	for _, c := range []struct {
		h, e          float64
		nTrain, nTest int
		want          bool
	}{
		// SE = √(0.1·0.9/500 + 0.1·0.9/200) = 0.0251.
		{0.10, 0.10, 500, 200, true},
		{0.10, 0.15, 500, 200, true},  // 0.05 < 2 SE = 0.0502
		{0.10, 0.151, 500, 200, true}, // SE grows with e
		{0.10, 0.17, 500, 200, false},
		{0.05, 0.0, 1000, 1000, false}, // SE = 0.0069: 0.05 is 7 SE off
		{-1, 0.1, 500, 200, false},     // no estimate
	} {
		if got := heldOutWithin(c.h, c.e, c.nTrain, c.nTest); got != c.want {
			t.Errorf("heldOutWithin(%v, %v, %d, %d) = %v, want %v", c.h, c.e, c.nTrain, c.nTest, got, c.want)
		}
	}
}
