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
// (a beamrun frame). The float64 values are their bits, so the merge is
// exact.
const partMagic = "PGTRAIN1"

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
	header := []uint64{uint64(p.Index), uint64(p.Lo), uint64(n), near}
	return beamrun.AppendFrame(partMagic, header, 8*n*(2+int(near)), func(b []byte) []byte {
		for _, v := range [][]float64{s.mean, s.vr, s.near} {
			for _, x := range v {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
			}
		}
		return b
	})
}

// decodePartTo decodes the part file b (named name) of p, with near
// correlations when near is set, into dst's positions of p.
func decodePartTo(dst scores, b []byte, name string, p Part, near bool) error {
	n := len(p.Rows)
	k := 2
	if near {
		k = 3
	}
	header := []uint64{uint64(p.Index), uint64(p.Lo), uint64(n), uint64(k - 2)}
	v, err := beamrun.OpenFrame(b, partMagic, header, 8*n*k)
	if err != nil {
		return fmt.Errorf("%s: %w: %v", name, errPart, err)
	}
	for c, d := range [][]float64{dst.mean, dst.vr, dst.near}[:k] {
		for i := range n {
			d[p.Lo+i] = math.Float64frombits(binary.LittleEndian.Uint64(v[8*(c*n+i):]))
		}
	}
	return nil
}
