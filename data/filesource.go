package data

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
)

// FileSource streams a LIBSVM, CSV or IDX file, plain or gzip- or
// bzip2-compressed, re-reading (and re-parsing) the file in every pass:
// its memory is one line or image and the decompressor's buffers, whatever
// the file's size. Errors are those of ReadLIBSVM, ReadCSV and ReadIDX,
// naming the file and line, except that no bound applies to the whole
// matrix (only one batch is held). It is not a RowReader; Gather reads it
// in a pass. For many passes, converting the file once with WriteBinary is
// much faster (BenchmarkReadPass).
type FileSource struct {
	path     string
	d        int
	n        int // -1 until a pass has ended
	labelled bool
	newRows  func(br *bufio.Reader) (fileRows, error)
	chunk    int // rows between context checks
	imgW     int
	imgH     int

	open func() (io.ReadCloser, error) // opens the file (os.Open of path)
	f    io.ReadCloser                 // open during a pass
	rows fileRows
	next int
	done bool
	err  error // the error that ended the pass
}

// fileRows parses the examples of one pass of a file.
type fileRows interface {
	// row parses the next example into row (of the source's width)
	// and its label; ok is false at the end of the file.
	row(row []float64, label *float64) (ok bool, err error)
	// noExamples is the error for a file without examples.
	noExamples() error
	// close releases what the pass opened besides the file.
	close() error
}

func (s *FileSource) Name() string   { return s.path }
func (s *FileSource) Dim() int       { return s.d }
func (s *FileSource) Len() int       { return s.n }
func (s *FileSource) Labelled() bool { return s.labelled }

// ImageShape returns the image geometry of an IDX image file (0, 0 for
// other files).
func (s *FileSource) ImageShape() (w, h int) { return s.imgW, s.imgH }

// Reset closes the current pass; the next call to Next opens the file
// again.
func (s *FileSource) Reset() error {
	s.next, s.done, s.err = 0, false, nil
	return s.closePass()
}

// Close closes the file.
func (s *FileSource) Close() error { return s.closePass() }

func (s *FileSource) closePass() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	if s.rows != nil {
		err = errors.Join(s.rows.close(), err)
	}
	s.f, s.rows = nil, nil
	return err
}

// Next parses the next examples of the pass into b.
func (s *FileSource) Next(ctx context.Context, b *Batch) error {
	checkBatch(b, s.d)
	b.n, b.Start = 0, s.next
	switch {
	case s.err != nil:
		return s.err
	case s.done:
		return io.EOF
	}
	err := s.fill(ctx, b)
	if err != nil && err != io.EOF {
		s.err = err
	}
	return err
}

// fill parses the next examples into b.
func (s *FileSource) fill(ctx context.Context, b *Batch) error {
	if s.f == nil {
		if err := s.openPass(); err != nil {
			return err
		}
	}
	for b.n < b.Cap() {
		if b.n%s.chunk == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		ok, err := s.rows.row(b.x[b.n*s.d:(b.n+1)*s.d], &b.y[b.n])
		if err != nil {
			return err
		}
		if !ok {
			return s.endPass(b)
		}
		b.n++
		s.next++
	}
	return nil
}

// endPass ends the pass at the end of the file: the batch may hold the
// last rows, and an empty file is an error.
func (s *FileSource) endPass(b *Batch) error {
	if s.next == 0 {
		return s.rows.noExamples()
	}
	s.done, s.n = true, s.next
	if err := s.closePass(); err != nil {
		return err
	}
	if b.n == 0 {
		return io.EOF
	}
	return nil
}

// fileOpener opens path.
func fileOpener(path string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return os.Open(path) }
}

// openPass opens the file for a new pass.
func (s *FileSource) openPass() error {
	f, err := s.open()
	if err != nil {
		return err
	}
	br, err := decompress(f, s.path)
	if err != nil {
		f.Close()
		return err
	}
	s.f = f
	if s.rows, err = s.newRows(br); err != nil {
		s.closePass()
		return err
	}
	return nil
}
