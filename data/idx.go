package data

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// IDX header constants (LeCun's MNIST format): two zero bytes, the data
// type, the number of dimensions, then each dimension as a big-endian
// uint32.
const (
	idxUbyte    = 0x08
	IDXImages   = 0x00000803 // magic of an unsigned-byte image file (count, rows, columns)
	IDXLabels   = 0x00000801 // magic of an unsigned-byte label file (count)
	maxIDXDims  = 3
	idxTypeName = "unsigned byte (0x08)"
)

// ReadIDX reads an IDX image file (magic 0x00000803: count × rows ×
// columns unsigned bytes; a 2-dimensional count × features file, magic
// 0x00000802, is accepted too) and, if labels is not nil, the matching IDX
// label file (magic 0x00000801). Either may be gzip- or bzip2-compressed
// (detected by content). Pixels become value/255 in [0, 1]; labels keep
// their byte values. imagesName and labelsName are used in errors and
// Source.
func ReadIDX(images, labels io.Reader, imagesName, labelsName string) (*Dataset, error) {
	ib, err := decompress(images, imagesName)
	if err != nil {
		return nil, err
	}
	dims, err := idxHeader(ib, imagesName)
	if err != nil {
		return nil, err
	}
	n, d, err := idxShape(dims, imagesName)
	if err != nil {
		return nil, err
	}
	if !checkSize(n, d, maxElements) {
		return nil, errorf(imagesName, 0, "IDX header claims %d images of %v: too large", n, dims[1:])
	}
	ds := &Dataset{N: int(n), D: int(d), Source: imagesName}
	if len(dims) == 3 {
		ds.ImageH, ds.ImageW = int(dims[1]), int(dims[2])
	}

	var lb *bufio.Reader
	if labels != nil {
		if lb, err = decompress(labels, labelsName); err != nil {
			return nil, err
		}
		if err := idxLabelHeader(lb, labelsName, n, imagesName); err != nil {
			return nil, err
		}
		// The labels are few; read them before the pixels so that a
		// mismatch is reported without reading the large image file.
		ds.Y = make([]float64, 0, min(n, 1<<16))
		var buf [4096]byte
		for int64(len(ds.Y)) < n {
			k := min(int64(len(buf)), n-int64(len(ds.Y)))
			got, err := io.ReadFull(lb, buf[:k])
			for _, b := range buf[:got] {
				ds.Y = append(ds.Y, float64(b))
			}
			if err != nil {
				return nil, truncated(labelsName, err, "truncated: %d of %d labels", len(ds.Y), n)
			}
		}
		if err := idxEnd(lb, labelsName, "labels"); err != nil {
			return nil, err
		}
	}

	// Grow X by doubling up to its final size instead of allocating it
	// from the header: a forged header must not cost memory the data
	// does not back (peak 1.5x the final size).
	total := n * d
	ds.X = make([]float64, 0, min(total, 1<<16))
	var buf [32 << 10]byte
	for int64(len(ds.X)) < total {
		k := min(int64(len(buf)), total-int64(len(ds.X)))
		got, err := io.ReadFull(ib, buf[:k])
		if need := len(ds.X) + got; need > cap(ds.X) {
			x := make([]float64, len(ds.X), min(total, max(2*int64(cap(ds.X)), int64(need))))
			copy(x, ds.X)
			ds.X = x
		}
		for _, b := range buf[:got] {
			ds.X = append(ds.X, float64(b)/255)
		}
		if err != nil {
			i, part := int64(len(ds.X))/d, int64(len(ds.X))%d
			if part == 0 {
				return nil, truncated(imagesName, err, "truncated: %d of %d images", i, n)
			}
			return nil, truncated(imagesName, err, "truncated: image %d of %d has %d of %d bytes", i+1, n, part, d)
		}
	}
	if err := idxEnd(ib, imagesName, "images"); err != nil {
		return nil, err
	}
	return ds, nil
}

// idxShape returns the number of images and the features per image of
// an IDX image file with dimensions dims. An image must have at most
// maxElements features, the bound on a whole Dataset.
func idxShape(dims []uint32, name string) (n, d int64, err error) {
	if len(dims) == 1 {
		return 0, 0, errorf(name, 0, "IDX file has 1 dimension (a label file?); want images (count, rows, columns)")
	}
	n, d = int64(dims[0]), 1
	for _, k := range dims[1:] {
		d *= int64(k) // at most 2^64 after two factors < 2^32; checked below
		if d > maxElements {
			return 0, 0, errorf(name, 0, "IDX header claims %d images of %v: too large", n, dims[1:])
		}
	}
	if n == 0 {
		return 0, 0, errorf(name, 0, "no examples (IDX image count 0)")
	}
	if d == 0 {
		return 0, 0, errorf(name, 0, "IDX images of size 0 (dimensions %v)", dims)
	}
	return n, d, nil
}

// idxLabelHeader reads and checks the header of the label file for n
// images.
func idxLabelHeader(lb *bufio.Reader, labelsName string, n int64, imagesName string) error {
	ld, err := idxHeader(lb, labelsName)
	if err != nil {
		return err
	}
	if len(ld) != 1 {
		return errorf(labelsName, 0, "IDX label file has %d dimensions %v; want 1 (count)", len(ld), ld)
	}
	if int64(ld[0]) != n {
		return errorf(labelsName, 0, "%d labels for %d images in %s", ld[0], n, imagesName)
	}
	return nil
}

// idxHeader reads and checks an IDX header and returns its dimensions.
func idxHeader(r *bufio.Reader, name string) ([]uint32, error) {
	var h [4]byte
	if got, err := io.ReadFull(r, h[:]); err != nil {
		if got == 0 && err == io.EOF {
			return nil, errorf(name, 0, "empty file")
		}
		return nil, truncated(name, err, "truncated IDX header (%d bytes)", got)
	}
	if h[0] != 0 || h[1] != 0 {
		return nil, errorf(name, 0, "not an IDX file (magic %02x%02x%02x%02x; want 000008xx)", h[0], h[1], h[2], h[3])
	}
	if h[2] != idxUbyte {
		return nil, errorf(name, 0, "IDX data type 0x%02x not supported; want %s", h[2], idxTypeName)
	}
	if h[3] == 0 || h[3] > maxIDXDims {
		return nil, errorf(name, 0, "IDX file with %d dimensions; want 1 (labels) or 2-3 (images)", h[3])
	}
	dims := make([]uint32, h[3])
	if err := binary.Read(r, binary.BigEndian, dims); err != nil {
		return nil, truncated(name, err, "truncated IDX header (%d dimensions)", h[3])
	}
	return dims, nil
}

// idxEnd checks that r has nothing after the data.
func idxEnd(r *bufio.Reader, name, what string) error {
	switch _, err := r.ReadByte(); {
	case err == nil:
		return errorf(name, 0, "data after the last of the %s the header announces", what)
	case err != io.EOF:
		return &ParseError{File: name, Msg: "reading", Err: err}
	}
	return nil
}

// truncated reports a short read: the message for a plain end of data, the
// underlying error otherwise (a decompression failure).
func truncated(name string, err error, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &ParseError{File: name, Msg: msg}
	}
	return &ParseError{File: name, Msg: msg, Err: err}
}
