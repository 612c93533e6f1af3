package score

import (
	"context"
	"fmt"

	"github.com/passgp-fast/passgp-fast/data"
)

// Shard is a contiguous range [Lo, Hi) of a data file's rows; Index is
// its place in row order.
type Shard struct {
	Index, Lo, Hi int
}

// Shards splits n rows into shards of rows rows (the last may be shorter).
// It panics unless rows is a positive multiple of Align: a shard that
// starts elsewhere would be scored in other chunks than Predict's.
func Shards(n, rows int) []Shard {
	if rows <= 0 || rows%Align != 0 {
		panic(fmt.Sprintf("score: Shards: %d rows per shard, want a positive multiple of %d", rows, Align))
	}
	var sh []Shard
	for lo := 0; lo < n; lo += rows {
		sh = append(sh, Shard{Index: len(sh), Lo: lo, Hi: min(lo+rows, n)})
	}
	return sh
}

// ScoreBlock scores rows [lo, hi) of src, lo a multiple of Align, in
// pieces of Align rows (memory O(Align·D) for the rows, besides the
// results); latent asks for the latent means and variances. Errors name
// src and the rows. It stops with ctx's error when ctx ends.
func (s *Scorer) ScoreBlock(ctx context.Context, src data.RowReader, lo, hi int, latent bool) (*Rows, error) {
	if lo%Align != 0 || lo < 0 || hi < lo || hi > src.Len() {
		panic(fmt.Sprintf("score: ScoreBlock: rows [%d, %d) of %d, want a start at a multiple of %d", lo, hi, src.Len(), Align))
	}
	if src.Dim() != s.D() {
		return nil, fmt.Errorf("%s: %d features, but the model was trained on %d", src.Name(), src.Dim(), s.D())
	}
	out := newRows(hi-lo, len(s.Outputs()), s.K(), latent)
	b := data.NewBatch(min(Align, max(hi-lo, 1)), src.Dim())
	idx := make([]int, 0, Align)
	for at := lo; at < hi; at += Align {
		end := min(at+Align, hi)
		idx = idx[:0]
		for i := at; i < end; i++ {
			idx = append(idx, i)
		}
		if err := src.ReadRows(ctx, idx, b); err != nil {
			return nil, err
		}
		name := fmt.Sprintf("%s, rows %d to %d", src.Name(), at+1, end)
		if err := s.Score(ctx, out, at-lo, b.Dense(), name); err != nil {
			return nil, err
		}
	}
	return out, nil
}
