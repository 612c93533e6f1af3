package score

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/passgp-fast/passgp-fast/beam/internal/beamrun"
)

// TestRunCancel: a context cancelled before the run, or by the first
// shard's worker as it starts (which then waits until the cancellation
// has reached its own context: the test would hang if it did not), makes
// Run return the context's error, with no worker of the run left in
// flight and no shard file left behind.
func TestRunCancel(t *testing.T) {
	modelPath, dataPath := fixture(t)
	for _, tc := range []struct {
		name   string
		before bool
	}{
		{"before the run", true},
		{"as shard 1 starts", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.before {
				cancel()
			} else {
				shardStarts = func(wctx context.Context, sh Shard) {
					if sh.Index == 0 {
						cancel()
						<-wctx.Done()
					}
				}
				defer func() { shardStarts = nil }()
			}
			dir := t.TempDir()
			res, err := Run(ctx, Options{Model: modelPath, Data: dataPath, Dir: dir, ShardRows: Align, Workers: 2})
			if !errors.Is(err, context.Canceled) || res != nil {
				t.Fatalf("Run: %v, %v; want nil, %v", res, err, context.Canceled)
			}
			if runs := beamrun.Runs(); runs != 0 {
				t.Errorf("%d runs still registered", runs)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("%d shard files left", len(left))
			}
		})
	}
}
