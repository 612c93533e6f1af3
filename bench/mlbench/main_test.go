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
