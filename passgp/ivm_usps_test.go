package passgp

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestIVMUSPSBinary times IVM (paper setting: SE+lin, M = 300, Passes
// alternations of selection and θ optimisation) on one USPS digit.
// Gated: PASSGP_USPS_IVM=1 go test -run IVMUSPS -v ./passgp
func TestIVMUSPSBinary(t *testing.T) {
	if os.Getenv("PASSGP_USPS_IVM") == "" {
		t.Skip("set PASSGP_USPS_IVM=1 to time IVM on USPS digit 0")
	}
	xtr, ytr, _, _ := loadUSPS(t)
	y := make([]float64, len(ytr))
	for i, v := range ytr {
		y[i] = -1
		if v == 0 {
			y[i] = 1
		}
	}
	start := time.Now()
	res, err := Train(context.Background(), xtr, y, &Options{Method: IVM, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range res.Batches {
		t.Logf("pass %d: selection %v, θ %v (%d evals) -> %.4g", b.Pass, b.ScoreTime.Round(time.Millisecond), b.HypTime.Round(time.Millisecond), b.HypEvals, b.Theta)
	}
	t.Logf("IVM digit 0: %v", time.Since(start).Round(time.Millisecond))
}
