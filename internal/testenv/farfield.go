package testenv

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/synth"
)

// FarField returns the far-field task of the passgp and model tests: 300
// points of a noisy, imbalanced 4-feature task (2 relevant features, 5%
// flipped labels, 15% positives; synth seed 5) with their ±1 labels, and
// a ray of 61 points leaving the data along the diagonal in steps of 0.5,
// far from every training point at its end.
func FarField(t testing.TB) (x *mat.Dense, y []float64, ray *mat.Dense) {
	t.Helper()
	task := synth.Task{D: 4, Relevant: 2, Flip: 0.05, Priors: []float64{0.85, 0.15}}
	ds, err := synth.Dataset(task, 300, 5)
	if err != nil {
		t.Fatal(err)
	}
	const nr = 61
	ray = mat.NewDense(nr, 4, nil)
	for i := range nr {
		for j := range 4 {
			ray.Set(i, j, 0.5*float64(i))
		}
	}
	return ds.Dense(), ds.Y, ray
}
