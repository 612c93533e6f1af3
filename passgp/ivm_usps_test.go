package passgp

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestIVMUSPSBinary times IVM (paper setting: SE+lin, M = 300, Passes
// alternations of selection and θ optimisation) on one USPS digit.
// Gated: PASSGP_USPS_IVM=<digit> go test -run IVMUSPS -v ./passgp
func TestIVMUSPSBinary(t *testing.T) {
	if os.Getenv("PASSGP_USPS_IVM") == "" {
		t.Skip("set PASSGP_USPS_IVM=<digit> to time IVM on one USPS digit")
	}
	digit, _ := strconv.ParseFloat(os.Getenv("PASSGP_USPS_IVM"), 64)
	xtr, ytr, _, _ := loadUSPS(t)
	y := oneVsRest(t, ytr, digit)
	o := &Options{Method: IVM, Threads: 1}
	o.HypMaxEvals, _ = strconv.Atoi(os.Getenv("PASSGP_EVALS"))
	start := time.Now()
	res, err := Train(context.Background(), xtr, y, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range res.Batches {
		t.Logf("pass %d: selection %v, θ %v (%d evals) logZ %.3f -> %.4g", b.Pass, b.ScoreTime.Round(time.Millisecond), b.HypTime.Round(time.Millisecond), b.HypEvals, b.LogZ, b.Theta)
	}
	t.Logf("IVM digit %v: %v", digit, time.Since(start).Round(time.Millisecond))
}
