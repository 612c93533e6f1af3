package beamrun

import (
	"context"
	"encoding/binary"
	"fmt"
)

// A frame is the layout of the files that a pipeline's workers write for
// the driver (shard and part files), little-endian:
//
//	magic
//	uint64 header fields
//	payload
//	uint32 CRC-32C of everything before it (Checksum)
//
// The checksum catches a file torn by a failed write; the header, which
// the driver knows, ties the file to the piece of work it answers.

// AppendFrame returns the frame of magic and header whose payload body
// appends to its argument; size is the payload's length, a capacity hint.
func AppendFrame(magic string, header []uint64, size int, body func([]byte) []byte) []byte {
	b := make([]byte, 0, len(magic)+8*len(header)+size+4)
	b = append(b, magic...)
	for _, v := range header {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	b = body(b)
	return binary.LittleEndian.AppendUint32(b, Checksum(b))
}

// OpenFrame checks that b is a frame of magic with the header fields
// want and a payload of size bytes, and returns the payload; its error
// says what does not match.
func OpenFrame(b []byte, magic string, want []uint64, size int) ([]byte, error) {
	head := len(magic) + 8*len(want)
	if n := head + size + 4; len(b) != n || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("%d bytes, want %d starting %q", len(b), n, magic)
	}
	if binary.LittleEndian.Uint32(b[len(b)-4:]) != Checksum(b[:len(b)-4]) {
		return nil, fmt.Errorf("checksum mismatch")
	}
	h := b[len(magic):head]
	for i, v := range want {
		if got := binary.LittleEndian.Uint64(h[8*i:]); got != v {
			return nil, fmt.Errorf("header field %d is %d, want %d", i+1, got, v)
		}
	}
	return b[head : len(b)-4], nil
}

// Collect reads the files at paths in order and hands each to use,
// removing it once used; after an error it removes the files not yet
// removed (RemoveFiles, without ctx's cancellation) and returns the
// error.
func Collect(ctx context.Context, paths []string, use func(i int, b []byte) error) error {
	for i, p := range paths {
		b, err := ReadFile(ctx, p)
		if err == nil {
			err = use(i, b)
		}
		if err == nil {
			err = RemoveFile(ctx, p)
		}
		if err != nil {
			RemoveFiles(context.WithoutCancel(ctx), paths[i:])
			return err
		}
	}
	return nil
}
