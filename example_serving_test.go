package passgpfast_test

import (
	"context"
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/synth"
)

// A service shares the serving view of one classifier between its
// request handlers: each call runs on its own goroutine's core with no
// BLAS call, and gets what the same call gets alone.
func ExampleClassifier_Serving() {
	ctx := context.Background()
	train, err := synth.Dataset(synth.Task{Classes: 2, D: 3}, 200, 1)
	if err != nil {
		panic(err)
	}
	clf, err := passgpfast.Fit(ctx, train.Dense(), train.Y, passgpfast.WithThreads(1))
	if err != nil {
		panic(err)
	}
	srv := clf.Serving()
	req, _ := synth.Dataset(synth.Task{Classes: 2, D: 3}, 50, 2)
	alone, err := srv.Predict(ctx, req.Dense())
	if err != nil {
		panic(err)
	}
	var wg sync.WaitGroup
	same := make([]bool, 4)
	for h := range same { // four concurrent handlers
		wg.Go(func() {
			p, err := srv.Predict(ctx, req.Dense())
			same[h] = err == nil && mat.Equal(p.Prob, alone.Prob)
		})
	}
	wg.Wait()
	fmt.Println("concurrent calls predict what one call does:", same)
	// Output:
	// concurrent calls predict what one call does: [true true true true]
}
