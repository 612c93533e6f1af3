package train

import (
	"fmt"

	"github.com/passgp-fast/passgp-fast/score"
)

// Part is a part of a call's row list: positions [Lo, Lo+len(Rows)) of
// the list, Index its place in it; Rows are the data file's rows and Y
// their labels (empty when the task does not screen).
type Part struct {
	Index, Lo int
	Rows      []int
	Y         []float64
}

// DefaultPartRows returns the rows per part for a list of n rows and
// workers groups: about four parts per group, so that a slow worker
// holds up the end of a call by a quarter of its share, rounded up to a
// multiple of score.Chunk and at most 16 chunks, which bounds a
// part file.
func DefaultPartRows(n, workers int) int {
	c := score.Chunk
	per := (n + 4*workers - 1) / max(4*workers, 1)
	return min(max((per+c-1)/c*c, c), 16*c)
}

// parts splits rows (with labels y, nil: none) into parts of size rows
// (the last may be shorter). It panics unless size is a positive
// multiple of score.Chunk: a part that starts elsewhere would be
// scored in other chunks than training's.
func parts(rows []int, y []float64, size int) []Part {
	if size <= 0 || size%score.Chunk != 0 {
		panic(fmt.Sprintf("train: parts of %d rows, want a positive multiple of %d", size, score.Chunk))
	}
	var ps []Part
	for lo := 0; lo < len(rows); lo += size {
		hi := min(lo+size, len(rows))
		p := Part{Index: len(ps), Lo: lo, Rows: rows[lo:hi]}
		if y != nil {
			p.Y = y[lo:hi]
		}
		ps = append(ps, p)
	}
	return ps
}
