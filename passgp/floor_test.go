package passgp

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// rareTask returns n points uniform in [-1, 1]³, of which the first pos,
// in a corner, are positive.
func rareTask(n, pos int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 9))
	x := mat.NewDense(n, 3, nil)
	y := make([]float64, n)
	for i := range n {
		y[i] = -1
		for j := range 3 {
			x.Set(i, j, 2*rng.Float64()-1)
		}
		if i < pos {
			y[i] = 1
			for j := range 3 {
				x.Set(i, j, 0.8+0.1*rng.Float64())
			}
		}
	}
	return x, y
}

// TestKeepFloor: with 6 positives in 4000 points every initial active
// point is deletable, and without PASS-GP's floor the active set swings
// (300 → 1 → the next batch's 400 candidates, all at q ≈ 1/2 → 24); with
// it, p_del leaves Init/2 points (the budget, 759, is larger) and no
// later batch brings in more than a tenth of its candidates. The floor is
// half of a larger active set, and half the budget where that is smaller
// than Init.
func TestKeepFloor(t *testing.T) {
	x, y := rareTask(4000, 6, 1)
	o := &Options{Seed: 1, MaxActive: SqrtBudget(4000)}
	res, err := Train(context.Background(), x, y, o)
	if err != nil {
		t.Fatal(err)
	}
	floor := floorOf(DefaultInit, SqrtBudget(4000))
	for i, b := range res.Batches {
		if kept := b.Active - b.Included; kept < floor {
			t.Errorf("batch %d: %d active points kept, floor %d", i, kept, floor)
		}
		if i > 0 && b.Included > 4000/DefaultSub/10 {
			t.Errorf("batch %d: %d points included of %d", i, b.Included, 4000/DefaultSub)
		}
	}
}

func TestKeepFloorShare(t *testing.T) {
	for _, c := range []struct {
		r    rule
		m    int
		want int
	}{{rule{floor: 30}, 50, 30}, {rule{floor: 30}, 2000, 1000}, {rule{}, 2000, 0}} {
		if got := c.r.keepFloor(c.m); got != c.want {
			t.Errorf("floor %d, %d active: %d, want %d", c.r.floor, c.m, got, c.want)
		}
	}
	for _, c := range [][3]int{{300, 2000, 150}, {300, 759, 150}, {300, 147, 73}, {300, 0, 0}, {100, 2000, 50}} {
		if got := floorOf(c[0], c[1]); got != c[2] {
			t.Errorf("floorOf(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
