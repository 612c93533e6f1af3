package data

import (
	"context"
	"fmt"
	"io"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Source yields the examples of a data set in batches, one pass at a time,
// so that training can visit every point once per pass (PASS-GP, Henao &
// Winther, Sec. 3) without holding the data in memory: a pass in batches
// of at most B rows needs O(B·D) memory, in the caller's Batch.
//
// A pass starts with Reset and returns the examples in the source's fixed
// order (the order of the file or Dataset), so two passes, and two sources
// over the same data, give the same batches. Next fills the caller's Batch
// without allocating and checks ctx once per chunk (about 1 MiB of input).
// A Source is not safe for concurrent use.
type Source interface {
	// Name names the data in errors (a file name or Dataset.Source).
	Name() string
	// Dim is the number of features D of every row.
	Dim() int
	// Len is the number of examples N, or -1 when it is not known
	// before a pass has been read to its end.
	Len() int
	// Labelled reports whether the examples carry labels.
	Labelled() bool
	// Reset starts a new pass at the first example.
	Reset() error
	// Next fills b with the next examples of the pass, at most
	// b.Cap() of them, and sets b.Start to the index of the first. At
	// the end of the pass it returns io.EOF with b.Len() == 0. Any other
	// error (bad data, an I/O failure, ctx's error) leaves b's content
	// unspecified and ends the pass: Next returns that error again until
	// Reset. It panics when b.Dim() != Dim().
	Next(ctx context.Context, b *Batch) error
	// Close releases the source's resources (files).
	io.Closer
}

// RowReader is a Source that reads rows by index without a pass, as a
// trainer gathering its active set needs. MemSource and BinarySource
// implement it; file sources do not (Gather reads them in a pass).
type RowReader interface {
	Source
	// ReadRows fills b with the rows idx (in that order, repeats
	// allowed) and sets b.Start to -1. It does not change the position
	// of the current pass. It panics when len(idx) > b.Cap(), an index
	// is out of range or b.Dim() != Dim().
	ReadRows(ctx context.Context, idx []int, b *Batch) error
}

// ImageShaper is implemented by sources that know their image geometry
// (Dataset.ImageW and ImageH); WriteBinary records it.
type ImageShaper interface {
	ImageShape() (w, h int)
}

// Batch is a caller-owned buffer of up to Cap() rows of D features and
// their labels, reused from one Next call to the next.
type Batch struct {
	x, y  []float64 // Cap()·D and Cap() elements
	d     int
	n     int
	dense mat.Dense
	// Start is the index in the source of the batch's first row (row i
	// is example Start+i) after Next, and -1 after ReadRows.
	Start int
}

// NewBatch returns a Batch of capacity rows (at least 1) of d features.
func NewBatch(rows, d int) *Batch {
	if rows < 1 || d < 1 {
		panic(fmt.Sprintf("data: NewBatch(%d, %d): need rows, d >= 1", rows, d))
	}
	return &Batch{x: make([]float64, rows*d), y: make([]float64, rows), d: d}
}

// Clear empties the batch and sets Start, for a Source outside this
// package that fills it with Append.
func (b *Batch) Clear(start int) { b.n, b.Start = 0, start }

// Append adds a row and its label. It panics when the batch is full or
// the row has not Dim() features.
func (b *Batch) Append(row []float64, label float64) {
	if b.n == len(b.y) || len(row) != b.d {
		panic(fmt.Sprintf("data: Append of %d features to a batch of %d/%d rows of %d", len(row), b.n, len(b.y), b.d))
	}
	copy(b.x[b.n*b.d:(b.n+1)*b.d], row)
	b.y[b.n] = label
	b.n++
}

// Cap is the most rows the batch holds.
func (b *Batch) Cap() int { return len(b.y) }

// Dim is the number of features of a row.
func (b *Batch) Dim() int { return b.d }

// Len is the number of rows held.
func (b *Batch) Len() int { return b.n }

// X returns the rows held, row-major (Len()·Dim() values), sharing the
// batch's storage.
func (b *Batch) X() []float64 { return b.x[: b.n*b.d : b.n*b.d] }

// Y returns the labels of the rows held, sharing the batch's storage. Its
// content is unspecified when the source has no labels.
func (b *Batch) Y() []float64 { return b.y[:b.n:b.n] }

// Row returns row i, sharing the batch's storage.
func (b *Batch) Row(i int) []float64 {
	if i < 0 || i >= b.n {
		panic(fmt.Sprintf("data: batch row %d out of range [0,%d)", i, b.n))
	}
	return b.x[i*b.d : (i+1)*b.d : (i+1)*b.d]
}

// Dense returns the rows held as a Len()×Dim() matrix sharing the batch's
// storage. The matrix is the batch's own and is re-pointed, without
// allocating, by each call. It panics when the batch is empty.
func (b *Batch) Dense() *mat.Dense {
	if b.n == 0 {
		panic("data: Dense of an empty batch")
	}
	b.dense.SetRawMatrix(blas64.General{Rows: b.n, Cols: b.d, Stride: b.d, Data: b.X()})
	return &b.dense
}

// checkBatch panics when b does not fit a source of width d.
func checkBatch(b *Batch, d int) {
	if b == nil {
		panic("data: nil batch")
	}
	if b.d != d {
		panic(fmt.Sprintf("data: batch of width %d for a source of width %d", b.Dim(), d))
	}
}

// chunkBytes is the amount of input a source reads or copies between two
// checks of its context: small enough that cancellation is prompt, large
// enough that reads are efficient.
const chunkBytes = chunkElems * 8

// chunkRows is the number of rows of recBytes bytes in one chunk (at
// least 1).
func chunkRows(recBytes int) int { return max(1, chunkBytes/max(recBytes, 1)) }
