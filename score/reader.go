package score

import (
	"context"
	"fmt"
	"math"
	"sync"
)

// RowReader reads rows by index and can fail, as a data file on disk
// (data.BinarySource). Its RowsTo must be safe for concurrent use.
type RowReader interface {
	Len() int
	Dim() int
	RowsTo(dst []float64, idx []int) error
}

// ReaderRows returns the rows of r, with r's errors kept as Rows's
// sticky error.
func ReaderRows(r RowReader) Rows { return &readerRows{r: r} }

type readerRows struct {
	r   RowReader
	err FirstError
}

func (x *readerRows) Dims() (n, d int) { return x.r.Len(), x.r.Dim() }

// ChecksFinite reports whether r's reads fail on a value that is not
// finite.
func (x *readerRows) ChecksFinite() bool { return ChecksFinite(x.r) }

// ChecksFinite reports whether v has a method ChecksFinite that reports
// that its reads fail on a value that is not finite (a binary data
// file's), so that its values need no check of their own. Wrappers of
// rows forward it through this function.
func ChecksFinite(v any) bool {
	c, ok := v.(interface{ ChecksFinite() bool })
	return ok && c.ChecksFinite()
}

// CheckFinite returns an error naming the first input of x that is NaN or
// infinite, reading x in blocks and checking ctx between them; rows whose
// reads fail on such a value (ChecksFinite) are not read.
func CheckFinite(ctx context.Context, x Rows) error {
	if ChecksFinite(x) {
		return nil
	}
	n, d := x.Dims()
	const block = 1024
	buf := make([]float64, min(block, n)*d)
	var idx []int
	for lo := 0; lo < n; lo += block {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+block, n)
		idx = spanTo(idx, lo, hi)
		x.RowsTo(buf, idx)
		if err := x.Err(); err != nil {
			return err
		}
		for k, v := range buf[:(hi-lo)*d] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("input row %d feature %d is %v", lo+k/d, k%d, v)
			}
		}
	}
	return nil
}

func (x *readerRows) RowsTo(dst []float64, idx []int) {
	if err := x.r.RowsTo(dst, idx); err != nil {
		clear(dst[:len(idx)*x.r.Dim()])
		x.err.Set(err)
	}
}

func (x *readerRows) Err() error { return x.err.Err() }

// FirstError keeps the first error set on it, for a Rows whose reads can
// fail: the sticky error that Rows.Err returns, as in bufio.Scanner. It
// is safe for concurrent use (scoring reads rows on several goroutines).
// The zero value holds no error.
type FirstError struct {
	mu  sync.Mutex
	err error
}

// Set records err unless an error is held already or err is nil.
func (e *FirstError) Set(err error) {
	if err == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err == nil {
		e.err = err
	}
}

// Err returns the first error set, or nil.
func (e *FirstError) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}
