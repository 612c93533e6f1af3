package data

import (
	"context"
	"fmt"
	"io"
	"slices"
)

// Gather returns a Dataset holding copies of the rows idx of src (in that
// order, repeats allowed), as a trainer gathers its active set. A
// RowReader reads just those rows; any other source is read in a new pass
// (Gather calls Reset, and the caller must Reset again before its next
// pass), keeping only the rows asked for. It panics on a negative index
// or one beyond the source's end.
func Gather(ctx context.Context, src Source, idx []int) (*Dataset, error) {
	d := src.Dim()
	ds := &Dataset{N: len(idx), D: d, X: make([]float64, len(idx)*d), Source: src.Name()}
	if src.Labelled() {
		ds.Y = make([]float64, len(idx))
	}
	if g, ok := src.(ImageShaper); ok {
		ds.ImageW, ds.ImageH = g.ImageShape()
	}
	if len(idx) == 0 {
		return ds, nil
	}
	b := NewBatch(min(len(idx), chunkRows(8*(d+1))), d)
	if rr, ok := src.(RowReader); ok {
		for k := 0; k < len(idx); k += b.Cap() {
			part := idx[k:min(k+b.Cap(), len(idx))]
			if err := rr.ReadRows(ctx, part, b); err != nil {
				return nil, err
			}
			ds.copyBatch(b, k)
		}
		return ds, nil
	}
	return ds, gatherPass(ctx, src, idx, b, ds)
}

// copyBatch copies b's rows into ds from row k on.
func (ds *Dataset) copyBatch(b *Batch, k int) {
	copy(ds.X[k*ds.D:], b.X())
	if ds.Y != nil {
		copy(ds.Y[k:], b.Y())
	}
}

// gatherPass reads a pass of src and copies the rows idx into ds, going
// through idx in increasing order of row.
func gatherPass(ctx context.Context, src Source, idx []int, b *Batch, ds *Dataset) error {
	order := make([]int, len(idx)) // positions in idx by increasing row
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(p, q int) int { return idx[p] - idx[q] })
	if i := idx[order[0]]; i < 0 {
		panic(fmt.Sprintf("data: Gather of row %d", i))
	}
	if err := src.Reset(); err != nil {
		return err
	}
	p := 0
	for p < len(order) {
		err := src.Next(ctx, b)
		if err == io.EOF {
			panic(fmt.Sprintf("data: Gather of row %d from %s of %d rows", idx[order[p]], src.Name(), b.Start))
		}
		if err != nil {
			return err
		}
		for ; p < len(order) && idx[order[p]] < b.Start+b.Len(); p++ {
			k := order[p]
			copy(ds.X[k*ds.D:(k+1)*ds.D], b.Row(idx[k]-b.Start))
			if ds.Y != nil {
				ds.Y[k] = b.y[idx[k]-b.Start]
			}
		}
	}
	return nil
}
