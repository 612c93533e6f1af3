package passgp

import "testing"

// TestSqrtBudget: train's default budget is ⌈12·√n⌉ up to 2000, and no
// bound for no data.
func TestSqrtBudget(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{0, 0},
		{1, 12},
		{2000, 537},
		{7291, 1025}, // USPS: its digits need at most 444 points
		{10000, 1200},
		{27777, 2000}, // ⌈12·√27777⌉ = 2000 exactly
		{27000, 1972},
		{49990, 2000}, // IJCNN
		{60000, 2000}, // MNIST
		{1000000, 2000},
	} {
		if got := SqrtBudget(c.n); got != c.want {
			t.Errorf("SqrtBudget(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
