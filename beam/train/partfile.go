package train

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/passgp-fast/passgp-fast/beam/internal/beamrun"
)

// A part file holds one part's scores, little-endian:
//
//	magic "PGTRAIN1"
//	uint64 index, lo, n, near (0 or 1)
//	n float64 means, n variances, n correlations when near is 1
//	uint32 CRC-32C of everything before it (beamrun.Checksum)
//
// The float64 values are their bits, so the merge is exact.
const partMagic = "PGTRAIN1"

const partHeader = len(partMagic) + 4*8

// errPart marks a part file that is not what its part's scores must be.
var errPart = errors.New("bad part file")

// scores are a part's results; near is nil when not read.
type scores struct {
	mean, vr, near []float64
}

// encodePart returns the part file of p's scores s.
func encodePart(p Part, s scores) []byte {
	n := len(p.Rows)
	near := uint64(0)
	if s.near != nil {
		near = 1
	}
	b := make([]byte, 0, partHeader+8*n*(2+int(near))+4)
	b = append(b, partMagic...)
	for _, v := range []uint64{uint64(p.Index), uint64(p.Lo), uint64(n), near} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	for _, v := range [][]float64{s.mean, s.vr, s.near} {
		for _, x := range v {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
	}
	return binary.LittleEndian.AppendUint32(b, beamrun.Checksum(b))
}

// decodePartTo decodes the part file b (named name) of p, with near
// correlations when near is set, into dst's positions of p.
func decodePartTo(dst scores, b []byte, name string, p Part, near bool) error {
	n := len(p.Rows)
	k := 2
	if near {
		k = 3
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: %w: %s", name, errPart, fmt.Sprintf(format, a...))
	}
	if want := partHeader + 8*n*k + 4; len(b) != want || string(b[:len(partMagic)]) != partMagic {
		return bad("%d bytes, want %d starting %q", len(b), want, partMagic)
	}
	if binary.LittleEndian.Uint32(b[len(b)-4:]) != beamrun.Checksum(b[:len(b)-4]) {
		return bad("checksum mismatch")
	}
	h := b[len(partMagic):partHeader]
	for i, v := range []uint64{uint64(p.Index), uint64(p.Lo), uint64(n), uint64(k - 2)} {
		if got := binary.LittleEndian.Uint64(h[8*i:]); got != v {
			return bad("header field %d is %d, want %d", i+1, got, v)
		}
	}
	v := b[partHeader:]
	for c, d := range [][]float64{dst.mean, dst.vr, dst.near}[:k] {
		for i := range n {
			d[p.Lo+i] = math.Float64frombits(binary.LittleEndian.Uint64(v[8*(c*n+i):]))
		}
	}
	return nil
}
