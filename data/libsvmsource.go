package data

import (
	"bufio"
	"context"
	"io"
	"os"
)

// OpenLIBSVM returns a FileSource over the LIBSVM file at path. With
// o.Dim set, rows have that width and nothing is read until the first
// pass; Len is -1 until a pass has ended. Otherwise OpenLIBSVM reads the
// file once to find the width (the largest feature index, at least
// o.MinDim) and the number of examples, so that every parse error is
// reported here; a file much sparser than its width allows (DenseFactor) is
// refused, as ReadLIBSVM refuses it. o.MaxBytes does not apply. The scan
// checks ctx once per chunk of input.
func OpenLIBSVM(ctx context.Context, path string, o LIBSVMOptions) (*FileSource, error) {
	if o.Dim > 0 {
		if _, err := os.Stat(path); err != nil {
			return nil, err
		}
	}
	return newLIBSVMSource(ctx, path, fileOpener(path), o)
}

// newLIBSVMSource is OpenLIBSVM reading the file that open opens; path
// names it.
func newLIBSVMSource(ctx context.Context, path string, open func() (io.ReadCloser, error), o LIBSVMOptions) (*FileSource, error) {
	s := &FileSource{path: path, d: o.Dim, n: -1, labelled: true, open: open}
	s.newRows = func(br *bufio.Reader) (fileRows, error) {
		return &libsvmRows{p: libsvmParser{lr: &lineReader{br: br, name: path}, dim: s.d}}, nil
	}
	if o.Dim <= 0 {
		n, d, err := scanLIBSVM(ctx, path, open, o.MinDim)
		if err != nil {
			return nil, err
		}
		s.n, s.d = n, d
	}
	s.chunk = chunkRows(8 * (s.d + 1))
	return s, nil
}

// scanLIBSVM reads the LIBSVM file that open opens once and returns its
// number of examples and width.
func scanLIBSVM(ctx context.Context, path string, open func() (io.ReadCloser, error), minDim int) (n, d int, err error) {
	f, err := open()
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	br, err := decompress(f, path)
	if err != nil {
		return 0, 0, err
	}
	lr := &lineReader{br: br, name: path}
	r := &libsvmRows{p: libsvmParser{lr: lr}}
	var values int64
	for check := int64(0); ; {
		if lr.bytes >= check {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
			check = lr.bytes + chunkBytes
		}
		last, ok, err := r.line()
		if err != nil {
			return 0, 0, err
		}
		if !ok {
			break
		}
		n++
		d = max(d, int(last), minDim)
		values += int64(len(r.p.val))
		if err := checkDensity(lr, int64(n), int64(d), values); err != nil {
			return 0, 0, err
		}
	}
	switch {
	case n == 0:
		return 0, 0, r.noExamples()
	case d == 0:
		return 0, 0, errorf(path, 0, "no features: every example is empty (give a dimension)")
	}
	return n, d, nil
}

// libsvmRows parses the examples of a LIBSVM file one line at a time.
type libsvmRows struct {
	p     libsvmParser
	label float64
}

// line parses the next example into p.col and p.val and its label; ok is
// false at the end of the file.
func (r *libsvmRows) line() (last int64, ok bool, err error) {
	for {
		line, ok, err := r.p.lr.next()
		if err != nil || !ok {
			return 0, false, err
		}
		r.p.col, r.p.val = r.p.col[:0], r.p.val[:0]
		y, last, ok, err := r.p.parse(line)
		if err != nil {
			return 0, false, err
		}
		if ok {
			r.label = y
			return last, true, nil
		}
	}
}

func (r *libsvmRows) row(row []float64, label *float64) (bool, error) {
	if _, ok, err := r.line(); !ok {
		return false, err
	}
	clear(row)
	for k, c := range r.p.col {
		row[c] = r.p.val[k]
	}
	*label = r.label
	return true, nil
}

func (r *libsvmRows) close() error { return nil }

func (r *libsvmRows) noExamples() error {
	if r.p.lr.bytes == 0 {
		return errorf(r.p.lr.name, 0, "empty file")
	}
	return errorf(r.p.lr.name, 0, "no examples (%d lines, all blank or comments)", r.p.lr.line)
}
