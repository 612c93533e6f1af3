package data

import (
	"context"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func castagnoliSum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// TestOpenBinaryErrors: a truncated, corrupted or foreign file is refused
// on opening with one line naming the file and the problem.
func TestOpenBinaryErrors(t *testing.T) {
	raw := validFile(t) // 64-byte header, 3 records of 24 bytes, 2 labels
	for _, tc := range []struct {
		name string
		in   []byte
		is   error
		want string
	}{
		{"empty", nil, ErrTruncated, "f: file is truncated (empty file)"},
		{"part of the magic", raw[:5], ErrTruncated, "f: file is truncated (5 bytes, the header needs 64)"},
		{"text", []byte("1 1:0.5 2:1\n-1 2:3\n"), ErrNotBinary, "f: not a passgp-fast binary data file (bad magic bytes)"},
		{"short text", []byte("1 1:1"), ErrNotBinary, "f: not a passgp-fast binary data file"},
		{"model file", append([]byte("PASSGPF\x00"), make([]byte, 80)...), ErrNotBinary, "f: not a passgp-fast binary data file (bad magic bytes): a passgp-fast model or checkpoint file, not data"},
		{"header cut", raw[:40], ErrTruncated, "f: file is truncated (40 bytes, the header needs 64)"},
		{"record cut", raw[:100], ErrTruncated, "f: file is truncated (100 bytes, the header promises 152)"},
		{"label table cut", raw[:len(raw)-1], ErrTruncated, "f: file is truncated (151 bytes, the header promises 152)"},
		{"extra byte", append(raw[:len(raw):len(raw)], 0), ErrCorrupt, "f: file is corrupted: 1 unexpected bytes after the data"},
		{"newer version", edit(raw, true, put32(8, 2)), ErrVersion, "f: binary data format version is newer than this program supports (file has version 2, newest supported is 1)"},
		{"version 0", edit(raw, true, put32(8, 0)), ErrCorrupt, "f: file is corrupted: invalid format version 0"},
		{"header bit flip", edit(raw, false, put64(16, 4)), ErrCorrupt, "f: file is corrupted: header checksum mismatch"},
		{"feature type", edit(raw, true, put32(12, 3)), ErrCorrupt, "f: file is corrupted: unknown feature type 3"},
		{"flags", edit(raw, true, put32(32, 5)), ErrCorrupt, "f: file is corrupted: unknown flags 0x5"},
		{"reserved", edit(raw, true, put32(56, 1)), ErrCorrupt, "f: file is corrupted: reserved header bytes are not zero"},
		{"no examples", edit(raw, true, put64(16, 0)), ErrCorrupt, "f: file is corrupted: no examples (N = 0)"},
		{"no features", edit(raw, true, put64(24, 0)), ErrCorrupt, "f: file is corrupted: no features (D = 0)"},
		{"labels without labels", edit(raw, true, put32(32, 0)), ErrCorrupt, "f: file is corrupted: 2 distinct labels without labels"},
		{"more labels than examples", edit(raw, true, put32(36, 4)), ErrCorrupt, "f: file is corrupted: 4 distinct labels for 3 labelled examples"},
		{"image shape", edit(raw, true, put32(40, 3)), ErrCorrupt, "f: file is corrupted: image 3x0 for 2 features"},
		{"huge n", edit(raw, true, put64(16, 1<<40)), ErrTruncated, "f: file is truncated (152 bytes, the header promises 26388279066704)"},
		{"huge n and d", edit(raw, true, func(b []byte) []byte { return put64(24, math.MaxInt32)(put64(16, 1<<63)(b)) }), ErrCorrupt, "f: file is corrupted: 9223372036854775808 examples x 2147483647 features: too large"},
		{"overflowing size", edit(raw, true, func(b []byte) []byte { return put64(24, 1<<31-1)(put64(16, 1<<40)(b)) }), ErrTruncated, "f: file is truncated (152 bytes; the header promises 1099511627776 examples x 2147483647 features, more than 2^63 bytes)"},
		{"label table order", edit(raw, false, put64(len(raw)-8, math.Float64bits(-2))), ErrCorrupt, "f: file is corrupted: label table entry 2 (-2) is not finite and increasing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			s, err := NewBinarySource(context.Background(), bytesReaderAt(tc.in), int64(len(tc.in)), "f", BinaryOptions{})
			runtime.ReadMemStats(&after)
			if s != nil {
				t.Fatal("source returned with an error")
			}
			checkError(t, nil, err, tc.want)
			if !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			// Whatever the header claims, opening allocates little.
			if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
				t.Errorf("opening allocated %d bytes", d)
			}
		})
	}
}

// TestPayloadCorruption: damage to the records is caught where it is
// decoded, or at the end of the pass by the payload checksum, or on
// opening with Verify.
func TestPayloadCorruption(t *testing.T) {
	raw := validFile(t)
	rec := func(i, field int) int { return binHeaderSize + 24*i + 8*field } // field 0 is the label
	for _, tc := range []struct {
		name string
		in   []byte
		want string // from Next
	}{
		{"NaN feature", edit(raw, false, put64(rec(1, 2), math.Float64bits(math.NaN()))), "f: file is corrupted: example 2 feature 2 is NaN"},
		{"infinite feature", edit(raw, false, put64(rec(2, 1), math.Float64bits(math.Inf(-1)))), "f: file is corrupted: example 3 feature 1 is -Inf"},
		{"unknown label", edit(raw, false, put64(rec(0, 0), math.Float64bits(7))), "f: file is corrupted: example 1 has label 7, not in the label table"},
		{"flipped bit", edit(raw, false, func(b []byte) []byte { b[rec(2, 2)] ^= 1; return b }), "f: file is corrupted: payload checksum mismatch (found at the end of a pass)"},
		{"flipped label table bit", edit(raw, false, func(b []byte) []byte { b[len(b)-8] ^= 1; return b }), "f: file is corrupted: example 2 has label 1, not in the label table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewBinarySource(context.Background(), bytesReaderAt(tc.in), int64(len(tc.in)), "f", BinaryOptions{})
			if err != nil {
				t.Fatal(err)
			}
			b := NewBatch(2, 2)
			for range 2 { // the same in every pass
				s.Reset()
				for err = nil; err == nil; err = s.Next(context.Background(), b) {
				}
				checkError(t, nil, err, tc.want)
				if !errors.Is(err, ErrCorrupt) {
					t.Errorf("error %v is not ErrCorrupt", err)
				}
			}
			_, err = NewBinarySource(context.Background(), bytesReaderAt(tc.in), int64(len(tc.in)), "f", BinaryOptions{Verify: true})
			checkError(t, nil, err, "f: file is corrupted: payload checksum mismatch")
		})
	}
}

// TestOpenBinaryFile: OpenBinary and Load name the path; a file that
// shrinks after opening is reported as truncated.
func TestOpenBinaryFile(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "a.libsvm")
	if err := os.WriteFile(text, []byte("1 1:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := OpenBinary(context.Background(), text, BinaryOptions{})
	checkError(t, nil, err, text+": not a passgp-fast binary data file")
	_, err = Load(text, Options{Format: Binary})
	checkError(t, nil, err, text+": not a passgp-fast binary data file")
	if _, err := OpenBinary(context.Background(), dir, BinaryOptions{}); err == nil {
		t.Error("a directory opened")
	}

	p := filepath.Join(dir, "d.pgd")
	if err := os.WriteFile(p, validFile(t), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(p, Options{Dim: 3})
	checkError(t, nil, err, p+": 2 features, want 3")
	s, err := OpenBinary(context.Background(), p, BinaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := os.Truncate(p, 100); err != nil {
		t.Fatal(err)
	}
	b := NewBatch(3, 2)
	err = s.Next(context.Background(), b)
	checkError(t, nil, err, p+": file is truncated: 36 of 72 bytes at offset 64")
	if err == io.EOF || !errors.Is(err, ErrTruncated) {
		t.Errorf("error %v is not ErrTruncated", err)
	}
}
