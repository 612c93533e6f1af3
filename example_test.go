package passgpfast_test

import (
	"bytes"
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/synth"
)

// Fit a classifier with train's defaults on a generated three-class
// task, predict calibrated probabilities, save it and load it back: the
// loaded classifier predicts exactly what the trained one did.
func Example() {
	ctx := context.Background()
	train, err := synth.Dataset(synth.Task{Classes: 3, D: 4}, 300, 1)
	if err != nil {
		panic(err)
	}
	clf, err := passgpfast.Fit(ctx, train.Dense(), train.Y, passgpfast.WithThreads(1))
	if err != nil {
		panic(err)
	}
	test, _ := synth.Dataset(synth.Task{Classes: 3, D: 4}, 5, 2)
	p := mat.NewDense(test.N, len(clf.Outputs()), nil)
	if err := clf.PredictProbaTo(ctx, p, test.Dense()); err != nil {
		panic(err)
	}
	var file bytes.Buffer
	if err := clf.Save(&file); err != nil {
		panic(err)
	}
	loaded, err := passgpfast.Load(&file, model.LoadOptions{})
	if err != nil {
		panic(err)
	}
	q := mat.NewDense(test.N, len(loaded.Outputs()), nil)
	if err := loaded.PredictProbaTo(ctx, q, test.Dense()); err != nil {
		panic(err)
	}
	est, _ := clf.HeldOut()
	fmt.Println("classes:", clf.Outputs())
	fmt.Println("probabilities sum to 1:", sums(p))
	fmt.Println("loaded predicts the same:", mat.Equal(p, q))
	fmt.Println("held-out estimate below 30% error:", est.Error < 0.3)
	// Output:
	// classes: [0 1 2]
	// probabilities sum to 1: true
	// loaded predicts the same: true
	// held-out estimate below 30% error: true
}

func sums(p *mat.Dense) bool {
	n, _ := p.Dims()
	for i := range n {
		if s := mat.Sum(p.RowView(i)); s < 1-1e-12 || s > 1+1e-12 {
			return false
		}
	}
	return true
}
