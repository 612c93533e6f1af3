package score

// Rows is random access to N×D inputs, read a chunk at a time (passgp.Rows
// is this type, with what training needs of it). RowsTo must be safe for
// concurrent use: scoring reads chunks on several goroutines. A read
// error is sticky: RowsTo then fills what it cannot read with zeros, and
// Err returns the first error, which scoring returns after its last
// chunk.
type Rows interface {
	// Dims returns the number of rows N and features D.
	Dims() (n, d int)
	// RowsTo copies the rows idx, in that order, into dst (len(idx)·D
	// values, row-major). It panics when an index is out of range or dst
	// is too short.
	RowsTo(dst []float64, idx []int)
	// Err returns the first read error, or nil.
	Err() error
}

// Subset is the rows Idx of X, numbered 0..len(Idx)-1: the view that
// scores a list of rows with labels given by position (Job.Score), and
// passgp's held-out stage's view of the training rows.
type Subset struct {
	X   Rows
	Idx []int
}

// Dims returns len(Idx) and X's number of features.
func (s Subset) Dims() (n, d int) {
	_, d = s.X.Dims()
	return len(s.Idx), d
}

// Err returns X's read error.
func (s Subset) Err() error { return s.X.Err() }

// RowsTo copies the rows Idx[i] of X for the i in idx into dst.
func (s Subset) RowsTo(dst []float64, idx []int) {
	orig := make([]int, len(idx))
	for k, i := range idx {
		orig[k] = s.Idx[i]
	}
	s.X.RowsTo(dst, orig)
}
