package passgp

import "testing"

// TestSqrtBudget: train's default budget is ⌈12·√n⌉ up to BudgetMax, and
// no bound for no data.
func TestSqrtBudget(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{0, 0},
		{1, 12},
		{2000, 537},
		{7291, 1025}, // USPS: its digits need at most 444 points
		{10000, 1200},
		{27777, 2000}, // ⌈12·√27777⌉ = 2000 exactly
		{27000, 1972},
		{49990, 2684},  // IJCNN
		{60000, 2940},  // MNIST
		{111111, 4000}, // ⌈12·√111111⌉ = 4000 exactly
		{1000000, 4000},
	} {
		if got := SqrtBudget(c.n); got != c.want {
			t.Errorf("SqrtBudget(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
