package model_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// Save a trained classifier and load it back: the loaded model predicts
// bit for bit the same probabilities.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(300, 2, nil)
	y := make([]float64, 300)
	for i := range y {
		a, b := rng.NormFloat64(), rng.NormFloat64()
		x.Set(i, 0, a)
		x.Set(i, 1, b)
		y[i] = 1
		if a*b < 0 {
			y[i] = -1
		}
	}
	res, err := passgp.Train(context.Background(), x, y, &passgp.Options{
		Kernel: kernel.SE{Var: 4, Len2: 0.5, Jitter: 1e-2}, FixedTheta: true, Init: 40, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, _ := os.MkdirTemp("", "model-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "xor.pgp")
	m := &model.Model{Mode: model.Binary, Classes: []float64{-1, 1}, Binaries: []*passgp.Binary{res.Model}}
	if err := model.Save(path, m); err != nil {
		fmt.Println(err)
		return
	}
	loaded, err := model.Load(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	p1 := mat.NewDense(300, 2, nil)
	p2 := mat.NewDense(300, 2, nil)
	m.ProbTo(p1, x)
	loaded.ProbTo(p2, x)
	fmt.Println("outputs:", loaded.Outputs())
	fmt.Println("identical predictions:", mat.Equal(p1, p2))
	// Output:
	// outputs: [-1 1]
	// identical predictions: true
}
