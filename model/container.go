package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"

	"github.com/passgp-fast/passgp-fast/data"
)

// Framing of every file this package writes (all integers little-endian):
//
//	offset  size  field
//	0       8     magic "PASSGPF\x00"
//	8       4     format version (uint32), currently Version
//	12      4     kind (uint32): 1 = model, 2 = checkpoint
//	16      8     payload length L in bytes (uint64)
//	24      L     payload
//	24+L    32    SHA-256 of bytes [0, 24+L) (header and payload)
//
// The checksum covers the header too, so a flipped bit in the kind or the
// length is reported as corruption, not misread.
const (
	// Version is the format version this package writes and the newest it
	// reads. Version 2 added the calibration, version 3 the noise counts
	// of the training history, version 4 the calibration's label-noise
	// share, version 5 the FITC posterior of passgp.TrainFITC, version
	// 6 the calibration's class balance, version 7 the input scaling,
	// version 8 the binary calibration's positive share of unexplained
	// labels, version 9 the calibration's far-field gate, version 10 FITC
	// posteriors on a subset of the active points (passgp.Options.BoundFITC)
	// and the calibration's per-class slopes
	// (docs/model-format.md); older files load without them.
	Version    = 10
	headerSize = 24
	sumSize    = sha256.Size
)

// Magic identifies passgp-fast files.
var Magic = [8]byte{'P', 'A', 'S', 'S', 'G', 'P', 'F', 0}

// Kind tells what a file holds.
type Kind uint32

const (
	KindModel      Kind = 1
	KindCheckpoint Kind = 2
)

func (k Kind) String() string {
	switch k {
	case KindModel:
		return "model"
	case KindCheckpoint:
		return "checkpoint"
	}
	return fmt.Sprintf("kind %d", uint32(k))
}

// Errors that Load and LoadCheckpoint wrap (test with errors.Is).
var (
	ErrTruncated = errors.New("file is truncated")
	ErrCorrupt   = errors.New("checksum mismatch: file is corrupted")
	ErrMagic     = errors.New("not a passgp-fast file (bad magic bytes)")
	ErrVersion   = errors.New("format version is newer than this program supports")
	ErrKind      = errors.New("wrong file kind")
	ErrPayload   = errors.New("invalid payload")
)

// frame wraps payload in the header and checksum.
func frame(kind Kind, payload []byte) []byte { return frameVersion(kind, Version, payload) }

// frameVersion is frame with a given format version (tests write old
// versions with it).
func frameVersion(kind Kind, version uint32, payload []byte) []byte {
	buf := make([]byte, headerSize, headerSize+len(payload)+sumSize)
	copy(buf, Magic[:])
	binary.LittleEndian.PutUint32(buf[8:], version)
	binary.LittleEndian.PutUint32(buf[12:], uint32(kind))
	binary.LittleEndian.PutUint64(buf[16:], uint64(len(payload)))
	buf = append(buf, payload...)
	sum := sha256.Sum256(buf)
	return append(buf, sum[:]...)
}

// unframe checks the framing of b and returns the payload. The checks run
// in the order that gives the most useful message: magic, version,
// length, checksum, kind.
func unframe(b []byte, want Kind) ([]byte, error) {
	if len(b) < len(Magic) {
		if bytes.HasPrefix(Magic[:], b) {
			return nil, fmt.Errorf("%w (%d bytes, header needs %d)", ErrTruncated, len(b), headerSize)
		}
		return nil, ErrMagic
	}
	if !bytes.Equal(b[:8], Magic[:]) {
		return nil, ErrMagic
	}
	if len(b) < headerSize {
		return nil, fmt.Errorf("%w (%d bytes, header needs %d)", ErrTruncated, len(b), headerSize)
	}
	v := binary.LittleEndian.Uint32(b[8:])
	if v == 0 || v > Version {
		if v == 0 {
			return nil, fmt.Errorf("%w: invalid format version 0", ErrCorrupt)
		}
		return nil, fmt.Errorf("%w (file has version %d, newest supported is %d)", ErrVersion, v, Version)
	}
	n := binary.LittleEndian.Uint64(b[16:])
	rest := uint64(len(b) - headerSize)
	if n > rest || rest-n < sumSize {
		return nil, fmt.Errorf("%w (%d bytes, header promises %d)", ErrTruncated, len(b), uint64(headerSize)+n+sumSize)
	}
	if rest-n > sumSize {
		return nil, fmt.Errorf("%w: %d unexpected bytes after the checksum", ErrCorrupt, rest-n-sumSize)
	}
	end := headerSize + int(n)
	sum := sha256.Sum256(b[:end])
	if !bytes.Equal(sum[:], b[end:]) {
		return nil, ErrCorrupt
	}
	if k := Kind(binary.LittleEndian.Uint32(b[12:])); k != want {
		return nil, fmt.Errorf("%w: file holds a %v, expected a %v", ErrKind, k, want)
	}
	return b[headerSize:end], nil
}

// readFramed reads path and returns its checked payload and format
// version. Errors name the file.
func readFramed(path string, want Kind) ([]byte, uint32, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	p, err := unframe(b, want)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return p, formatVersion(b), nil
}

// formatVersion returns the format version of a framed file that unframe
// accepted.
func formatVersion(b []byte) uint32 { return binary.LittleEndian.Uint32(b[8:]) }

// writeAtomic writes data to path so that a crash leaves either the old
// file or the complete new one (data.WriteFileAtomic).
func writeAtomic(path string, b []byte) error {
	return data.WriteFileAtomic(path, func(f *os.File) error {
		_, err := f.Write(b)
		return err
	})
}
