package train

import (
	"context"
	"errors"
	"os"
	"testing"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/beam/internal/beamrun"
)

// TestRemoteCancel: a context cancelled before a call makes it return
// the context's error; one cancelled by the first part's worker as it
// starts (which then waits until the cancellation has reached its own
// context: the test would hang if it did not) makes FitBinary return
// the context's error, with no run left registered and no part file
// left behind.
func TestRemoteCancel(t *testing.T) {
	path, src := dataFile(t, 2, 600)
	dir := t.TempDir()
	r, err := New(context.Background(), Options{Data: path, Workers: 2, Dir: dir, PartRows: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	t.Run("before the call", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		m, v := make([]float64, 3), make([]float64, 3)
		if err := r.Score(ctx, []byte("task"), []int{0, 1, 2}, nil, m, v); !errors.Is(err, context.Canceled) {
			t.Fatalf("Score: %v, want %v", err, context.Canceled)
		}
	})
	t.Run("as part 1 starts", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		partStarts = func(wctx context.Context, p Part) {
			if p.Index == 0 {
				cancel()
				<-wctx.Done()
			}
		}
		defer func() { partStarts = nil }()
		_, err := passgpfast.FitBinary(ctx, src, append(fitOptions(), passgpfast.WithRemoteScorer(r))...)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("FitBinary: %v, want %v", err, context.Canceled)
		}
	})
	if runs := beamrun.Runs(); runs != 0 {
		t.Errorf("%d runs still registered", runs)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("%d part files left", len(left))
	}
}
