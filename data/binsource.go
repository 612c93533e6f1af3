package data

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"slices"
	"sync"
)

// BinaryOptions controls OpenBinary and NewBinarySource.
type BinaryOptions struct {
	// Verify checks the payload checksum when the file is opened, at the
	// cost of reading it once. Without it the checksum is checked at the
	// end of every complete pass, where a mismatch takes the place of the
	// pass's io.EOF: a caller that uses a pass's results only once Next
	// has returned io.EOF never uses corrupted data, and pays no extra
	// read.
	Verify bool
}

// BinarySource streams a binary data file (see WriteBinary and
// docs/data-format.md) with reads of about 1 MiB; it also reads rows by
// index (RowReader). Its memory is that chunk and the label table,
// whatever the file's size.
type BinarySource struct {
	r      io.ReaderAt
	f      *os.File // closed by Close; nil from NewBinarySource
	name   string
	h      *binHeader
	labels []float64 // the label table
	table  []byte    // its encoding, for the payload checksum
	rec    int       // bytes per record
	chunk  int       // records per read
	buf    []byte
	next   int       // next record of the pass
	crc    uint32    // payload checksum of records [0, next)
	ended  error     // io.EOF, the checksum error or the error that ended the pass
	pool   sync.Pool // RowsTo's read buffers, like buf
}

// OpenBinary opens the binary data file at path and checks its header and
// size (and, with o.Verify, its payload checksum). Errors about the
// content are *ParseError values naming path and wrapping ErrNotBinary,
// ErrTruncated, ErrCorrupt or ErrVersion; errors opening the file are
// those of package os.
func OpenBinary(ctx context.Context, path string, o BinaryOptions) (*BinarySource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = &ParseError{File: path, Msg: "not a regular file"}
	}
	var s *BinarySource
	if err == nil {
		s, err = NewBinarySource(ctx, f, st.Size(), path, o)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	s.f = f
	return s, nil
}

// NewBinarySource reads a binary data file of size bytes from r; name is
// used in errors. It checks what OpenBinary checks.
func NewBinarySource(ctx context.Context, r io.ReaderAt, size int64, name string, o BinaryOptions) (*BinarySource, error) {
	s := &BinarySource{r: r, name: name}
	head := make([]byte, min(size, binHeaderSize))
	if err := s.read(head, 0); err != nil {
		return nil, err
	}
	h, err := decodeHeader(head, size)
	if err != nil {
		return nil, s.wrap(err)
	}
	s.h, s.rec = h, h.recBytes()
	s.table = make([]byte, 8*h.k) // backed by the file: its size was checked
	if err := s.read(s.table, s.offset(h.n)); err != nil {
		return nil, err
	}
	if s.labels, err = decodeLabels(s.table); err != nil {
		return nil, s.wrap(err)
	}
	s.chunk = chunkRows(s.rec)
	s.buf = make([]byte, min(s.chunk, h.n)*s.rec)
	bufLen := len(s.buf)
	s.pool.New = func() any { b := make([]byte, bufLen); return &b }
	if o.Verify {
		if err := s.verify(ctx); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *BinarySource) Name() string   { return s.name }
func (s *BinarySource) Dim() int       { return s.h.d }
func (s *BinarySource) Len() int       { return s.h.n }
func (s *BinarySource) Labelled() bool { return s.h.labelled }

// ImageShape returns the image geometry recorded in the file (0, 0 when
// none).
func (s *BinarySource) ImageShape() (w, h int) { return s.h.imgW, s.h.imgH }

// Labels returns the distinct labels in increasing order (nil when the
// file has none), known before any pass.
func (s *BinarySource) Labels() []float64 { return slices.Clone(s.labels) }

// Float32 reports whether the file stores features as float32 (they are
// widened exactly to float64 when read).
func (s *BinarySource) Float32() bool { return s.h.dtype == dtypeFloat32 }

// Reset starts a new pass.
func (s *BinarySource) Reset() error {
	s.next, s.crc, s.ended = 0, 0, nil
	return nil
}

// Close closes the file opened by OpenBinary.
func (s *BinarySource) Close() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}

// Next decodes the next records of the pass into b. At the end of the
// pass it checks the payload checksum: io.EOF means the pass read exactly
// what was written.
func (s *BinarySource) Next(ctx context.Context, b *Batch) error {
	checkBatch(b, s.h.d)
	b.n, b.Start = 0, s.next
	if s.ended != nil || s.next == s.h.n {
		return s.end()
	}
	if err := s.fill(ctx, b); err != nil {
		s.ended = err
		return err
	}
	return nil
}

// fill decodes the next records into b.
func (s *BinarySource) fill(ctx context.Context, b *Batch) error {
	want := min(b.Cap(), s.h.n-s.next)
	for b.n < want {
		if err := ctx.Err(); err != nil {
			return err
		}
		k := min(want-b.n, s.chunk)
		buf := s.buf[:k*s.rec]
		if err := s.read(buf, s.offset(s.next)); err != nil {
			return err
		}
		s.crc = crc32.Update(s.crc, castagnoli, buf)
		if err := s.decode(buf, b, b.n, s.next); err != nil {
			return err
		}
		b.n += k
		s.next += k
	}
	return nil
}

// end finishes the pass: the label table completes the payload checksum.
func (s *BinarySource) end() error {
	if s.ended == nil {
		s.ended = io.EOF
		if crc32.Update(s.crc, castagnoli, s.table) != s.h.payloadCRC {
			s.ended = s.wrap(fmt.Errorf("%w: payload checksum mismatch (found at the end of a pass)", ErrCorrupt))
		}
	}
	return s.ended
}

// ReadRows decodes the records idx into b, reading runs of consecutive
// indices together. The payload checksum is not checked (it covers whole
// passes); values and labels are.
func (s *BinarySource) ReadRows(ctx context.Context, idx []int, b *Batch) error {
	checkRows(b, s.h.d, s.h.n, idx)
	b.n, b.Start = 0, -1
	for k := 0; k < len(idx); {
		if err := ctx.Err(); err != nil {
			return err
		}
		run := 1
		for k+run < len(idx) && run < s.chunk && idx[k+run] == idx[k]+run {
			run++
		}
		buf := s.buf[:run*s.rec]
		if err := s.read(buf, s.offset(idx[k])); err != nil {
			return err
		}
		if err := s.decode(buf, b, k, idx[k]); err != nil {
			return err
		}
		k += run
	}
	b.n = len(idx)
	return nil
}

// verify checks the payload checksum in one read of the file.
func (s *BinarySource) verify(ctx context.Context) error {
	var crc uint32
	for i := 0; i < s.h.n; i += s.chunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		buf := s.buf[:min(s.chunk, s.h.n-i)*s.rec]
		if err := s.read(buf, s.offset(i)); err != nil {
			return err
		}
		crc = crc32.Update(crc, castagnoli, buf)
	}
	if crc32.Update(crc, castagnoli, s.table) != s.h.payloadCRC {
		return s.wrap(fmt.Errorf("%w: payload checksum mismatch", ErrCorrupt))
	}
	return nil
}

// offset is the file offset of record i.
func (s *BinarySource) offset(i int) int64 { return binHeaderSize + int64(i)*int64(s.rec) }

// read fills buf from offset off.
func (s *BinarySource) read(buf []byte, off int64) error {
	got, err := s.r.ReadAt(buf, off)
	switch {
	case got == len(buf):
		return nil
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return s.wrap(fmt.Errorf("%w: %d of %d bytes at offset %d (did the file change?)", ErrTruncated, got, len(buf), off))
	}
	return &ParseError{File: s.name, Msg: fmt.Sprintf("reading %d bytes at offset %d", len(buf), off), Err: err}
}

func (s *BinarySource) wrap(err error) error { return &ParseError{File: s.name, Err: err} }

// decode decodes the records in buf, the first of which is record first,
// into b's rows from row at on, checking that every value is finite and
// every label is in the label table.
func (s *BinarySource) decode(buf []byte, b *Batch, at, first int) error {
	return s.decodeTo(buf, b.x, b.y, at, first)
}

// decodeTo is decode into the rows x and labels y (nil: not stored).
func (s *BinarySource) decodeTo(buf []byte, x, ys []float64, at, first int) error {
	le := binary.LittleEndian
	d := s.h.d
	for r := 0; r*s.rec < len(buf); r++ {
		rec := buf[r*s.rec : (r+1)*s.rec]
		if s.h.labelled {
			y := math.Float64frombits(le.Uint64(rec))
			if _, ok := slices.BinarySearch(s.labels, y); !ok {
				return s.wrap(fmt.Errorf("%w: example %d has label %v, not in the label table", ErrCorrupt, first+r+1, y))
			}
			if ys != nil {
				ys[at+r] = y
			}
			rec = rec[8:]
		}
		row := x[(at+r)*d : (at+r+1)*d]
		var acc float64 // v*0 is NaN exactly when v is not finite
		if s.h.dtype == dtypeFloat32 {
			for j := range row {
				v := float64(math.Float32frombits(le.Uint32(rec[4*j:])))
				row[j] = v
				acc += v * 0
			}
		} else {
			for j := range row {
				v := math.Float64frombits(le.Uint64(rec[8*j:]))
				row[j] = v
				acc += v * 0
			}
		}
		if acc != 0 {
			j := slices.IndexFunc(row, func(v float64) bool { return v*0 != 0 })
			return s.wrap(fmt.Errorf("%w: example %d feature %d is %v", ErrCorrupt, first+r+1, j+1, row[j]))
		}
	}
	return nil
}

// ChecksFinite reports that reads fail on a value that is not finite
// (ErrCorrupt; WriteBinary writes none).
func (s *BinarySource) ChecksFinite() bool { return true }

// RowsTo decodes the inputs of the records idx, in that order, into dst
// (len(idx)·Dim() values, row-major), reading runs of consecutive records
// together, as ReadRows does. It uses no state of the source, so it is
// safe for concurrent use, also beside a pass: a trainer's workers read
// the rows they score with it. It panics when an index is out of range or
// dst is too short.
func (s *BinarySource) RowsTo(dst []float64, idx []int) error {
	d := s.h.d
	if len(dst) < len(idx)*d {
		panic(fmt.Sprintf("data: RowsTo: %d values for %d rows of %d", len(dst), len(idx), d))
	}
	bp := s.pool.Get().(*[]byte)
	defer s.pool.Put(bp)
	for k := 0; k < len(idx); {
		if idx[k] < 0 || idx[k] >= s.h.n {
			panic(fmt.Sprintf("data: RowsTo: row %d out of range [0,%d)", idx[k], s.h.n))
		}
		run := 1
		for k+run < len(idx) && run < s.chunk && idx[k+run] == idx[k]+run {
			run++
		}
		buf := (*bp)[:run*s.rec]
		if err := s.read(buf, s.offset(idx[k])); err != nil {
			return err
		}
		if err := s.decodeTo(buf, dst, nil, k, idx[k]); err != nil {
			return err
		}
		k += run
	}
	return nil
}
