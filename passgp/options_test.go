package passgp

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

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

// TestInitSize: PASS-GP's default N_init is 300 but at most half its
// budget (rounded up); the other methods and no budget keep 300.
func TestInitSize(t *testing.T) {
	for _, c := range []struct {
		m         Method
		maxActive int
		want      int
	}{
		{PASSGP, 0, 300},
		{PASSGP, SqrtBudget(592), 146}, // Vehicle: budget 292
		{PASSGP, SqrtBudget(149), 74},  // Glass: budget 147
		{PASSGP, 599, 300},
		{PASSGP, 2000, 300},
		{PASSGP, 1, 1},
		{FPASSGP, 100, 300},
		{IVM, 100, 300},
	} {
		if got := InitSize(c.m, c.maxActive); got != c.want {
			t.Errorf("InitSize(%v, %d) = %d, want %d", c.m, c.maxActive, got, c.want)
		}
	}
	c, err := checkInput(t.Context(), DenseRows(mat.NewDense(4, 1, []float64{0, 1, 2, 3})), []float64{-1, 1, -1, 1}, &Options{MaxActive: 10})
	if err != nil || c.Init != 5 {
		t.Errorf("Options{MaxActive: 10}: Init %d (%v), want 5", c.Init, err)
	}
}

// TestInducing checks the FITC stage's inducing inputs: BoundFITC, at
// most half the budget.
func TestInducing(t *testing.T) {
	for _, c := range []struct{ bound, maxActive, want int }{
		{300, SqrtBudget(592), 146}, // Vehicle: budget 292
		{300, SqrtBudget(1600), 240},
		{300, 600, 300},
		{300, 2000, 300},
		{20, 100, 20},
		{300, 1, 1},
	} {
		o := config{Options: Options{BoundFITC: c.bound, MaxActive: c.maxActive}}
		if got := o.inducing(); got != c.want {
			t.Errorf("BoundFITC %d, budget %d: %d inducing inputs, want %d", c.bound, c.maxActive, got, c.want)
		}
	}
}
