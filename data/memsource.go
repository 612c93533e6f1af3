package data

import (
	"context"
	"fmt"
	"io"
)

// MemSource is a Source over a Dataset in memory, so that training from
// memory and from a file run the same code. Next copies rows into the
// caller's Batch, as a file source decodes them.
type MemSource struct {
	ds    *Dataset
	next  int
	chunk int   // rows copied between context checks
	err   error // the error that ended the pass
}

// NewMemSource returns a Source over ds, which must not change while the
// source is used. It panics when ds has no rows or columns or its slices
// do not match N and D.
func NewMemSource(ds *Dataset) *MemSource {
	if ds.N < 1 || ds.D < 1 || len(ds.X) != ds.N*ds.D || (ds.Y != nil && len(ds.Y) != ds.N) {
		panic(fmt.Sprintf("data: NewMemSource of a %dx%d Dataset with len(X) %d, len(Y) %d", ds.N, ds.D, len(ds.X), len(ds.Y)))
	}
	return &MemSource{ds: ds, chunk: chunkRows(8 * (ds.D + 1))}
}

func (s *MemSource) Name() string   { return s.ds.Source }
func (s *MemSource) Dim() int       { return s.ds.D }
func (s *MemSource) Len() int       { return s.ds.N }
func (s *MemSource) Labelled() bool { return s.ds.Y != nil }
func (s *MemSource) Reset() error   { s.next, s.err = 0, nil; return nil }
func (s *MemSource) Close() error   { return nil }

// ImageShape returns the Dataset's image geometry.
func (s *MemSource) ImageShape() (w, h int) { return s.ds.ImageW, s.ds.ImageH }

// Next copies the next rows of the pass into b.
func (s *MemSource) Next(ctx context.Context, b *Batch) error {
	checkBatch(b, s.ds.D)
	b.n, b.Start = 0, s.next
	if s.err != nil {
		return s.err
	}
	want := min(b.Cap(), s.ds.N-s.next)
	if want == 0 {
		return io.EOF
	}
	d := s.ds.D
	for b.n < want {
		if err := ctx.Err(); err != nil {
			s.err = err
			return err
		}
		k := min(want-b.n, s.chunk)
		copy(b.x[b.n*d:(b.n+k)*d], s.ds.X[s.next*d:(s.next+k)*d])
		if s.ds.Y != nil {
			copy(b.y[b.n:b.n+k], s.ds.Y[s.next:s.next+k])
		}
		b.n += k
		s.next += k
	}
	return nil
}

// ReadRows copies the rows idx into b.
func (s *MemSource) ReadRows(ctx context.Context, idx []int, b *Batch) error {
	checkRows(b, s.ds.D, s.ds.N, idx)
	b.n, b.Start = 0, -1
	for k, i := range idx {
		if k%s.chunk == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		copy(b.x[k*s.ds.D:(k+1)*s.ds.D], s.ds.Row(i))
		if s.ds.Y != nil {
			b.y[k] = s.ds.Y[i]
		}
	}
	b.n = len(idx)
	return nil
}

// checkRows panics when the rows idx of a source of n rows of width d do
// not fit b.
func checkRows(b *Batch, d, n int, idx []int) {
	checkBatch(b, d)
	if len(idx) > b.Cap() {
		panic(fmt.Sprintf("data: %d rows for a batch of capacity %d", len(idx), b.Cap()))
	}
	for _, i := range idx {
		if i < 0 || i >= n {
			panic(fmt.Sprintf("data: row %d out of range [0,%d)", i, n))
		}
	}
}
