package passgp

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/score"
)

// Rows is random access to the N×D inputs of a training set (score.Rows).
// Training reads them only through Rows, a batch, the active set or a
// chunk of the held-out pass at a time, so that the inputs need not be in
// memory (score.ReaderRows of a data file) and PASS-GP's memory is
// O(M² + batch·D) beyond a few N-vectors. Training checks Err after each
// stage that reads and returns it.
type Rows = score.Rows

// DenseRows returns the rows of x, in memory.
func DenseRows(x *mat.Dense) Rows { return denseRows{x} }

type denseRows struct{ x *mat.Dense }

func (r denseRows) Dims() (n, d int) { return r.x.Dims() }
func (denseRows) Err() error         { return nil }

func (r denseRows) RowsTo(dst []float64, idx []int) {
	_, d := r.x.Dims()
	raw := r.x.RawMatrix()
	for k, i := range idx {
		copy(dst[k*d:(k+1)*d], raw.Data[i*raw.Stride:i*raw.Stride+d])
	}
}

// readRows returns the rows idx of x as a new matrix (nil when idx is
// empty), or x's read error.
func readRows(x Rows, idx []int) (*mat.Dense, error) {
	if len(idx) == 0 {
		return nil, x.Err()
	}
	_, d := x.Dims()
	out := mat.NewDense(len(idx), d, nil)
	x.RowsTo(out.RawMatrix().Data, idx)
	if err := x.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// asDense returns every row of x as one matrix: x's own when it is in
// memory, a copy read in order otherwise. The methods that call it hold
// O(N) rows or O(N·M) kernel values anyway (full EP, IVM's kernel
// columns, the FITC pass over all points, the invariance stage's shifted
// images), so for them streaming would save nothing.
func asDense(x Rows) (*mat.Dense, error) {
	if r, ok := x.(denseRows); ok {
		return r.x, nil
	}
	n, _ := x.Dims()
	out, err := readRows(x, span(0, n))
	if err != nil {
		return nil, fmt.Errorf("passgp: reading the training inputs: %w", err)
	}
	return out, nil
}

// span returns lo, lo+1, ..., hi-1.
func span(lo, hi int) []int {
	s := make([]int, hi-lo)
	for i := range s {
		s[i] = lo + i
	}
	return s
}

// spanTo sets dst to lo, ..., hi-1 in dst's storage (grown if needed).
func spanTo(dst []int, lo, hi int) []int {
	dst = dst[:0]
	for i := lo; i < hi; i++ {
		dst = append(dst, i)
	}
	return dst
}

// rowsOf returns the rows sub of x as a matrix with their labels of y,
// or all of them when sub is nil (asDense).
func rowsOf(x Rows, y []float64, sub []int) (*mat.Dense, []float64, error) {
	if sub == nil {
		xd, err := asDense(x)
		return xd, y, err
	}
	xs, err := readRows(x, sub)
	return xs, gather(y, sub), err
}
