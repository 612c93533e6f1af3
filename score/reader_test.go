package score

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// finiteRows are rows whose reads reject non-finite values themselves.
type finiteRows struct{ denseRows }

func (finiteRows) ChecksFinite() bool { return true }

// failingRows fail every read.
type failingRows struct {
	denseRows
	err FirstError
}

func (r *failingRows) RowsTo(dst []float64, idx []int) { r.err.Set(errors.New("disk gone")) }
func (r *failingRows) Err() error                      { return r.err.Err() }

// TestCheckFinite: the first non-finite input is named by row and feature,
// in any block; rows that check their own values, a cancelled context and
// a failing read are answered without a scan, with ctx's error and with
// the read's.
func TestCheckFinite(t *testing.T) {
	const n, d = 2500, 3 // three blocks
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, float64(i*d+j))
		}
	}
	ctx := context.Background()
	if err := CheckFinite(ctx, denseRows{x}); err != nil {
		t.Fatalf("finite rows: %v", err)
	}
	for _, c := range []struct {
		i, j int
		v    float64
		want string
	}{
		{0, 0, math.NaN(), "input row 0 feature 0 is NaN"},
		{1500, 2, math.Inf(1), "input row 1500 feature 2 is +Inf"},
		{n - 1, 1, math.Inf(-1), "input row 2499 feature 1 is -Inf"},
	} {
		y := mat.DenseCopyOf(x)
		y.Set(c.i, c.j, c.v)
		if err := CheckFinite(ctx, denseRows{y}); err == nil || err.Error() != c.want {
			t.Errorf("%v at (%d, %d): %v, want %q", c.v, c.i, c.j, err, c.want)
		}
		if err := CheckFinite(ctx, finiteRows{denseRows{y}}); err != nil {
			t.Errorf("rows that check themselves were scanned: %v", err)
		}
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := CheckFinite(done, denseRows{x}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if err := CheckFinite(ctx, &failingRows{denseRows: denseRows{x}}); err == nil || err.Error() != "disk gone" {
		t.Errorf("failing read: %v", err)
	}
}
