package data

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"
)

// Binary data file, format version 1 (docs/data-format.md). All integers
// and floats are little-endian:
//
//	offset  size  field
//	0       8     magic "PASSGPD\x00"
//	8       4     format version (uint32), BinaryVersion
//	12      4     feature type (uint32): 1 = float64, 2 = float32
//	16      8     N, examples (uint64, >= 1)
//	24      8     D, features per example (uint64, >= 1)
//	32      4     flags (uint32): bit 0 = labelled; other bits zero
//	36      4     K, distinct labels (uint32; 1..min(N, MaxBinaryLabels)
//	              when labelled, 0 otherwise)
//	40      4     image width (uint32; 0 when unknown)
//	44      4     image height (uint32; width·height == D when set)
//	48      4     CRC-32C (Castagnoli) of the payload, bytes [64, end)
//	52      8     reserved, zero
//	60      4     CRC-32C of the header bytes [0, 60)
//	64      ...   N records: the label (float64, when labelled), then D
//	              features of the feature type
//	...     8·K   the distinct labels (float64), strictly increasing
//
// The file size is exactly 64 + N·(8·labelled + D·size) + 8·K, which is
// checked when the file is opened: a truncated file, or a header claiming
// more than the file holds, is refused before anything is allocated. The
// header checksum is checked on opening too; the payload checksum on every
// complete pass (BinarySource.Next reports a mismatch in place of the
// pass's io.EOF) or up front with BinaryOptions.Verify. Values and labels
// are checked as they are decoded (finite; labels in the label table), so
// corruption that the payload checksum would report at the end of a pass
// is usually caught at the record it hits.
const (
	// BinaryVersion is the binary data format version this package
	// writes and the newest it reads.
	BinaryVersion = 1
	// MaxBinaryLabels bounds the number of distinct labels a binary data
	// file holds (its label table): these are classification data.
	MaxBinaryLabels = 1 << 16

	binHeaderSize = 64
	dtypeFloat64  = 1
	dtypeFloat32  = 2
	flagLabelled  = 1
)

// BinaryMagic identifies a passgp-fast binary data file.
var BinaryMagic = [8]byte{'P', 'A', 'S', 'S', 'G', 'P', 'D', 0}

// modelMagic is the magic of passgp-fast model and checkpoint files, named
// in the error for a model given as data.
var modelMagic = [8]byte{'P', 'A', 'S', 'S', 'G', 'P', 'F', 0}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Errors that binary data files are refused with, wrapped in a
// *ParseError naming the file (test with errors.Is).
var (
	ErrNotBinary = errors.New("not a passgp-fast binary data file (bad magic bytes)")
	ErrTruncated = errors.New("file is truncated")
	ErrCorrupt   = errors.New("file is corrupted")
	ErrVersion   = errors.New("binary data format version is newer than this program supports")
)

// binHeader is the decoded header of a binary data file.
type binHeader struct {
	dtype      uint32
	n, d       int
	labelled   bool
	k          int
	imgW, imgH int
	payloadCRC uint32
}

// featureSize is the size in bytes of one feature value.
func (h *binHeader) featureSize() int {
	if h.dtype == dtypeFloat32 {
		return 4
	}
	return 8
}

// recBytes is the size in bytes of one record.
func (h *binHeader) recBytes() int {
	r := h.d * h.featureSize()
	if h.labelled {
		r += 8
	}
	return r
}

// encode returns the header bytes, with its checksum.
func (h *binHeader) encode() []byte {
	b := make([]byte, binHeaderSize)
	le := binary.LittleEndian
	copy(b, BinaryMagic[:])
	le.PutUint32(b[8:], BinaryVersion)
	le.PutUint32(b[12:], h.dtype)
	le.PutUint64(b[16:], uint64(h.n))
	le.PutUint64(b[24:], uint64(h.d))
	if h.labelled {
		le.PutUint32(b[32:], flagLabelled)
	}
	le.PutUint32(b[36:], uint32(h.k))
	le.PutUint32(b[40:], uint32(h.imgW))
	le.PutUint32(b[44:], uint32(h.imgH))
	le.PutUint32(b[48:], h.payloadCRC)
	le.PutUint32(b[60:], crc32.Checksum(b[:60], castagnoli))
	return b
}

// decodeHeader checks the header b (the file's first bytes, fewer when the
// file is shorter) against the file's size and returns it. The checks run
// in the order that gives the most useful message: magic, version, header
// checksum, fields, size. Nothing is allocated from the header's counts.
func decodeHeader(b []byte, size int64) (*binHeader, error) {
	if len(b) < len(BinaryMagic) || !bytes.Equal(b[:8], BinaryMagic[:]) {
		switch {
		case len(b) < len(BinaryMagic) && bytes.HasPrefix(BinaryMagic[:], b) && len(b) > 0:
			return nil, fmt.Errorf("%w (%d bytes, the header needs %d)", ErrTruncated, len(b), binHeaderSize)
		case len(b) == 0:
			return nil, fmt.Errorf("%w (empty file)", ErrTruncated)
		case len(b) >= 8 && bytes.Equal(b[:8], modelMagic[:]):
			return nil, fmt.Errorf("%w: a passgp-fast model or checkpoint file, not data", ErrNotBinary)
		}
		return nil, ErrNotBinary
	}
	if len(b) < binHeaderSize {
		return nil, fmt.Errorf("%w (%d bytes, the header needs %d)", ErrTruncated, len(b), binHeaderSize)
	}
	le := binary.LittleEndian
	switch v := le.Uint32(b[8:]); {
	case v == 0:
		return nil, fmt.Errorf("%w: invalid format version 0", ErrCorrupt)
	case v > BinaryVersion:
		return nil, fmt.Errorf("%w (file has version %d, newest supported is %d)", ErrVersion, v, BinaryVersion)
	}
	if got, want := crc32.Checksum(b[:60], castagnoli), le.Uint32(b[60:]); got != want {
		return nil, fmt.Errorf("%w: header checksum mismatch", ErrCorrupt)
	}
	h, err := headerFields(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return h, checkFileSize(h, le.Uint64(b[16:]), le.Uint64(b[24:]), size)
}

// headerFields decodes and checks the fields of a header whose checksum
// matched.
func headerFields(b []byte) (*binHeader, error) {
	le := binary.LittleEndian
	h := &binHeader{dtype: le.Uint32(b[12:]), payloadCRC: le.Uint32(b[48:])}
	n, d := le.Uint64(b[16:]), le.Uint64(b[24:])
	flags, k := le.Uint32(b[32:]), le.Uint32(b[36:])
	w, ht := le.Uint32(b[40:]), le.Uint32(b[44:])
	switch {
	case h.dtype != dtypeFloat64 && h.dtype != dtypeFloat32:
		return nil, fmt.Errorf("unknown feature type %d (want 1 = float64 or 2 = float32)", h.dtype)
	case flags&^flagLabelled != 0:
		return nil, fmt.Errorf("unknown flags %#x", flags)
	case le.Uint64(b[52:]) != 0:
		return nil, fmt.Errorf("reserved header bytes are not zero")
	case n == 0:
		return nil, fmt.Errorf("no examples (N = 0)")
	case d == 0:
		return nil, fmt.Errorf("no features (D = 0)")
	case n > math.MaxInt32*uint64(math.MaxInt32) || d > math.MaxInt32:
		return nil, fmt.Errorf("%d examples x %d features: too large", n, d)
	case uint64(w)*uint64(ht) != d && (w != 0 || ht != 0):
		return nil, fmt.Errorf("image %dx%d for %d features", w, ht, d)
	}
	h.labelled = flags&flagLabelled != 0
	switch {
	case h.labelled && (k == 0 || uint64(k) > min(n, MaxBinaryLabels)):
		return nil, fmt.Errorf("%d distinct labels for %d labelled examples (at most %d)", k, n, MaxBinaryLabels)
	case !h.labelled && k != 0:
		return nil, fmt.Errorf("%d distinct labels without labels", k)
	}
	h.n, h.d, h.k, h.imgW, h.imgH = int(n), int(d), int(k), int(w), int(ht)
	return h, nil
}

// checkFileSize checks that the file is exactly as long as h says, with
// overflow-safe arithmetic on the header's counts.
func checkFileSize(h *binHeader, n, d uint64, size int64) error {
	rec := d * uint64(h.featureSize())
	if h.labelled {
		rec += 8
	}
	hi, body := bits.Mul64(n, rec)
	want, carry := bits.Add64(body, binHeaderSize+8*uint64(h.k), 0)
	switch {
	case hi != 0 || carry != 0 || want > math.MaxInt64:
		return fmt.Errorf("%w (%d bytes; the header promises %d examples x %d features, more than 2^63 bytes)", ErrTruncated, size, n, d)
	case uint64(size) < want:
		return fmt.Errorf("%w (%d bytes, the header promises %d)", ErrTruncated, size, want)
	case uint64(size) > want:
		return fmt.Errorf("%w: %d unexpected bytes after the data", ErrCorrupt, uint64(size)-want)
	}
	return nil
}

// decodeLabels decodes and checks the label table.
func decodeLabels(b []byte) ([]float64, error) {
	t := make([]float64, len(b)/8)
	for i := range t {
		t[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		if math.IsNaN(t[i]) || math.IsInf(t[i], 0) || i > 0 && t[i] <= t[i-1] {
			return nil, fmt.Errorf("%w: label table entry %d (%v) is not finite and increasing", ErrCorrupt, i+1, t[i])
		}
	}
	return t, nil
}
