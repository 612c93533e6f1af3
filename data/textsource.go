package data

import (
	"context"
	"io"
	"os"
)

// TextSource streams a LIBSVM or CSV text file, plain or gzip- or
// bzip2-compressed, re-reading (and re-parsing) the file in every pass:
// its memory is one line and the decompressor's buffers, whatever the
// file's size. Errors are those of ReadLIBSVM and ReadCSV, naming the file
// and line, except that no bound applies to the whole matrix (only one
// batch is held). It has no RowReader; Gather reads it in a pass. For
// many passes, converting the file once with WriteBinary is much faster
// (BenchmarkReadPass).
type TextSource struct {
	path     string
	d        int
	n        int // -1 until a pass has ended
	labelled bool
	newRows  func(lr *lineReader) textRows
	chunk    int // rows between context checks

	f    *os.File // open during a pass
	lr   *lineReader
	rows textRows
	next int
	done bool
}

// textRows parses the examples of one pass of a text file.
type textRows interface {
	// row parses the next example into row (of the source's width)
	// and its label; ok is false at the end of the file.
	row(row []float64, label *float64) (ok bool, err error)
	// noExamples is the error for a file without examples.
	noExamples() error
}

func (s *TextSource) Name() string   { return s.path }
func (s *TextSource) Dim() int       { return s.d }
func (s *TextSource) Len() int       { return s.n }
func (s *TextSource) Labelled() bool { return s.labelled }

// Reset closes the current pass; the next call to Next opens the file
// again.
func (s *TextSource) Reset() error {
	s.next, s.done = 0, false
	return s.closePass()
}

// Close closes the file.
func (s *TextSource) Close() error { return s.closePass() }

func (s *TextSource) closePass() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f, s.lr, s.rows = nil, nil, nil
	return err
}

// Next parses the next examples of the pass into b.
func (s *TextSource) Next(ctx context.Context, b *Batch) error {
	checkBatch(b, s.d)
	b.n, b.Start = 0, s.next
	if s.done {
		return io.EOF
	}
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
func (s *TextSource) endPass(b *Batch) error {
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

// openPass opens the file for a new pass.
func (s *TextSource) openPass() error {
	f, err := os.Open(s.path)
	if err != nil {
		return err
	}
	br, err := decompress(f, s.path)
	if err != nil {
		f.Close()
		return err
	}
	s.f = f
	s.lr = &lineReader{br: br, name: s.path}
	s.rows = s.newRows(s.lr)
	return nil
}
