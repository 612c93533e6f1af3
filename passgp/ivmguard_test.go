package passgp

import (
	"context"
	"testing"

	"github.com/passgp-fast/passgp-fast/internal/testenv"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestIVMSiteGuards: IVM on data with latents of zero prior variance
// (points at the origin under a linear kernel without jitter: their
// matched variance is zero and their site precision 1/0 − 1/0 would be
// NaN) trains a classifier with finite predictions (ivm's
// TestSelectSiteGuards checks the sites).
func TestIVMSiteGuards(t *testing.T) {
	x, y := testenv.ToyOrigin()
	k := kernel.SELin{SE: kernel.SE{Var: 0, Len2: 1}, Lin: 1}
	res, err := Train(context.Background(), x, y, &Options{Method: IVM, M: len(y), Kernel: k, FixedTheta: true, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	q := make([]float64, len(y))
	res.Model.PredictTo(q, x)
	for i, v := range q {
		if !(v >= 0 && v <= 1) {
			t.Fatalf("prediction %d = %v", i, v)
		}
	}
}
