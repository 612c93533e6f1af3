package passgp_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// twoMoons returns n points of two interleaved half circles with labels ±1.
func twoMoons(seed uint64, n int) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		t := math.Pi * rng.Float64()
		if i%2 == 0 {
			x.Set(i, 0, math.Cos(t)+0.1*rng.NormFloat64())
			x.Set(i, 1, math.Sin(t)+0.1*rng.NormFloat64())
			y[i] = 1
		} else {
			x.Set(i, 0, 1-math.Cos(t)+0.1*rng.NormFloat64())
			x.Set(i, 1, 0.5-math.Sin(t)+0.1*rng.NormFloat64())
			y[i] = -1
		}
	}
	return x, y
}

// Train a binary PASS-GP classifier and predict q(y=+1|x) on new points
// (paper eq. 4).
func ExampleTrain() {
	x, y := twoMoons(1, 1000)
	res, err := passgp.Train(context.Background(), x, y, &passgp.Options{
		Method:     passgp.PASSGP,
		Kernel:     kernel.SE{Var: 4, Len2: 0.1, Jitter: 1e-2},
		FixedTheta: true, // keep θ; leave false to maximise log Z_EP
		Init:       50,
		Seed:       1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	xt, yt := twoMoons(2, 500)
	prob := make([]float64, len(yt))
	res.Model.PredictTo(prob, xt)
	fmt.Println("active set smaller than the data:", len(res.Model.Y) < 1000)
	fmt.Println("test error below 5%:", calib.ProbErrorRate(prob, yt) < 0.05)
	// Output:
	// active set smaller than the data: true
	// test error below 5%: true
}

// Train one classifier per class (one against the rest) and predict labels.
func ExampleTrainMulti() {
	x, y := twoMoons(3, 600)
	// Relabel into three classes: the two moons, and the right half of
	// the second one as a class of its own.
	labels := make([]float64, len(y))
	for i := range y {
		switch {
		case y[i] > 0:
			labels[i] = 0
		case x.At(i, 0) < 1:
			labels[i] = 1
		default:
			labels[i] = 2
		}
	}
	res, err := passgp.TrainMulti(context.Background(), x, labels, &passgp.Options{
		Kernel: kernel.SE{Var: 4, Len2: 0.1, Jitter: 1e-2}, FixedTheta: true, Init: 40, Seed: 1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	pred := make([]float64, len(labels))
	res.Model.PredictTo(pred, x)
	right := 0
	for i := range pred {
		if pred[i] == labels[i] {
			right++
		}
	}
	fmt.Println("classes:", res.Model.Classes)
	fmt.Println("training accuracy above 90%:", float64(right)/float64(len(labels)) > 0.9)
	// Output:
	// classes: [0 1 2]
	// training accuracy above 90%: true
}
