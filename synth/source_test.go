package synth

import (
	"context"
	"io"
	"slices"
	"testing"

	"github.com/passgp-fast/passgp-fast/data"
)

// TestSource: a Source yields Dataset's rows, in batches of any size, and
// again after Reset.
func TestSource(t *testing.T) {
	task := Task{Classes: 3, D: 6, Flip: 0.1}
	want, err := Dataset(task, 257, 4)
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewSource(task, 257, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range []int{1, 10, 300} {
		if err := src.Reset(); err != nil {
			t.Fatal(err)
		}
		b := data.NewBatch(rows, task.D)
		var x, y []float64
		for {
			err := src.Next(context.Background(), b)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Start != len(y) {
				t.Fatalf("batch of %d: Start %d after %d rows", rows, b.Start, len(y))
			}
			x, y = append(x, b.X()...), append(y, b.Y()...)
		}
		if !slices.Equal(x, want.X) || !slices.Equal(y, want.Y) {
			t.Fatalf("batches of %d: the source's rows differ from Dataset's", rows)
		}
	}
}
