package passgp

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestIVMSiteGuards: IVM on data with latents of zero prior variance
// (points at the origin under a linear kernel without jitter: their
// matched variance is zero and their site precision 1/0 − 1/0 would be
// NaN) trains a classifier with finite predictions (ivm's
// TestSelectSiteGuards checks the sites).
func TestIVMSiteGuards(t *testing.T) {
	xs, ys := toy(30, 42)
	x := mat.NewDense(36, 2, nil)
	y := make([]float64, 36)
	for i := 0; i < 30; i++ {
		x.SetRow(i, xs.RawRowView(i))
		y[i] = ys[i]
	}
	for i := 30; i < 36; i++ {
		y[i] = float64(2*(i%2) - 1) // x_i = 0
	}
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
