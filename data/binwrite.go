package data

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
)

// WriteOptions controls WriteBinary.
type WriteOptions struct {
	// Float32 stores features as float32, halving the file. Values are
	// rounded to the nearest float32, so training on such a file is not
	// bit-identical to training on the float64 data; a value beyond
	// float32's range is an error. Labels stay float64.
	Float32 bool
}

// WriteBinary writes one pass of src to path as a binary data file (format
// in the package documentation and docs/data-format.md), holding one batch
// of about 1 MiB at a time, so a text file larger than memory converts in
// a single pass. It writes a temporary file in path's directory and
// renames it over path, so that a crash or an error leaves either the old
// file or the complete new one. Every value and label must be finite and
// there may be at most MaxBinaryLabels distinct labels. Use
// NewMemSource to write a Dataset.
func WriteBinary(ctx context.Context, path string, src Source, o WriteOptions) error {
	return WriteFileAtomic(path, func(f *os.File) error {
		if _, err := f.Write(make([]byte, binHeaderSize)); err != nil {
			return err
		}
		hdr, err := encodeBinary(ctx, f, src, o)
		if err != nil {
			return err
		}
		_, err = f.WriteAt(hdr, 0)
		return err
	})
}

// WriteFileAtomic has write fill a temporary file in path's directory,
// syncs it, makes it readable by all (0644), renames it over path and
// syncs the directory, so that a crash or an error leaves either the old
// file or the complete new one; on an error the temporary file is
// removed. Model files and binary data files are written through it.
func WriteFileAtomic(path string, write func(f *os.File) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	// Some file systems cannot sync a directory; the rename has happened,
	// so that is not reported.
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if serr := d.Sync(); serr != nil && !errors.Is(serr, os.ErrInvalid) {
		return serr
	}
	return nil
}

// encodeBinary writes the payload of src's next pass (records, then the
// label table) to w, which already holds binHeaderSize placeholder bytes,
// and returns the header to write over them.
func encodeBinary(ctx context.Context, w io.Writer, src Source, o WriteOptions) ([]byte, error) {
	if err := src.Reset(); err != nil {
		return nil, err
	}
	h := &binHeader{dtype: dtypeFloat64, d: src.Dim(), labelled: src.Labelled()}
	if o.Float32 {
		h.dtype = dtypeFloat32
	}
	if g, ok := src.(ImageShaper); ok {
		if iw, ih := g.ImageShape(); iw > 0 && ih > 0 && iw*ih == h.d {
			h.imgW, h.imgH = iw, ih
		}
	}
	rec := h.recBytes()
	b := NewBatch(chunkRows(rec), h.d)
	enc := make([]byte, b.Cap()*rec)
	seen := make(map[float64]struct{})
	var crc uint32
	for {
		err := src.Next(ctx, b)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		out, err := h.encodeRows(enc, b, seen, src.Name())
		if err != nil {
			return nil, err
		}
		crc = crc32.Update(crc, castagnoli, out)
		if _, err := w.Write(out); err != nil {
			return nil, err
		}
		h.n += b.Len()
	}
	if h.n == 0 {
		return nil, errorf(src.Name(), 0, "no examples")
	}
	labels := slices.Sorted(maps.Keys(seen))
	table := make([]byte, 8*len(labels))
	for i, v := range labels {
		binary.LittleEndian.PutUint64(table[8*i:], math.Float64bits(v))
	}
	crc = crc32.Update(crc, castagnoli, table)
	if _, err := w.Write(table); err != nil {
		return nil, err
	}
	h.k, h.payloadCRC = len(labels), crc
	return h.encode(), nil
}

// encodeRows encodes b's rows into enc and returns the bytes written,
// adding the labels to seen. name names the source in errors.
func (h *binHeader) encodeRows(enc []byte, b *Batch, seen map[float64]struct{}, name string) ([]byte, error) {
	le := binary.LittleEndian
	p := 0
	for i := range b.Len() {
		ex := b.Start + i + 1
		if h.labelled {
			y := b.y[i]
			if math.IsNaN(y) || math.IsInf(y, 0) {
				return nil, errorf(name, 0, "example %d: label %v is not finite", ex, y)
			}
			if _, ok := seen[y]; !ok && len(seen) == MaxBinaryLabels {
				return nil, errorf(name, 0, "example %d: more than %d distinct labels (a binary data file holds classification data)", ex, MaxBinaryLabels)
			}
			seen[y] = struct{}{}
			le.PutUint64(enc[p:], math.Float64bits(y))
			p += 8
		}
		for j, v := range b.Row(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, errorf(name, 0, "example %d feature %d: value %v is not finite", ex, j+1, v)
			}
			if h.dtype == dtypeFloat32 {
				f := float32(v)
				if math.IsInf(float64(f), 0) {
					return nil, errorf(name, 0, "example %d feature %d: value %v is beyond float32's range", ex, j+1, v)
				}
				le.PutUint32(enc[p:], math.Float32bits(f))
				p += 4
				continue
			}
			le.PutUint64(enc[p:], math.Float64bits(v))
			p += 8
		}
	}
	return enc[:p], nil
}
