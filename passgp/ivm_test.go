package passgp

import (
	"context"
	"testing"

	"github.com/passgp-fast/passgp-fast/calib"
)

func TestIVMTrain(t *testing.T) {
	x, y := toy(300, 21)
	res, err := Train(context.Background(), x, y, &Options{Method: IVM, M: 40, Passes: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Model.Active) != 40 || len(res.Batches) != 3 {
		t.Fatalf("|A| = %d, %d passes", len(res.Model.Active), len(res.Batches))
	}
	if res.Model.Kernel.Name() != "se+lin" {
		t.Errorf("IVM default kernel %s, want se+lin", res.Model.Kernel.Name())
	}
	xt, yt := toy(300, 22)
	p := make([]float64, 300)
	res.Model.PredictTo(p, xt)
	e := calib.ProbErrorRate(p, yt)
	t.Logf("IVM error %.3f θ %v", e, res.Model.Kernel.Params())
	if e > 60.0/300 {
		t.Errorf("IVM error %.3f > 60/300", e)
	}
}
