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
//	magic "PGTRAIN2"
//	uint64 index, lo, n
//	n float64 means, n variances
//	uint32 CRC-32C of everything before it (beamrun.Checksum)
//
// (a beamrun frame). The float64 values are their bits, so the merge is
// exact.
const partMagic = "PGTRAIN2"

// errPart marks a part file that is not what its part's scores must be.
var errPart = errors.New("bad part file")

// scores are a part's results.
type scores struct {
	mean, vr []float64
}

// encodePart returns the part file of p's scores s.
func encodePart(p Part, s scores) []byte {
	n := len(p.Rows)
	header := []uint64{uint64(p.Index), uint64(p.Lo), uint64(n)}
	return beamrun.AppendFrame(partMagic, header, 8*n*2, func(b []byte) []byte {
		for _, v := range [][]float64{s.mean, s.vr} {
			for _, x := range v {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
			}
		}
		return b
	})
}

// decodePartTo decodes the part file b (named name) of p into dst's
// positions of p.
func decodePartTo(dst scores, b []byte, name string, p Part) error {
	n := len(p.Rows)
	header := []uint64{uint64(p.Index), uint64(p.Lo), uint64(n)}
	v, err := beamrun.OpenFrame(b, partMagic, header, 8*n*2)
	if err != nil {
		return fmt.Errorf("%s: %w: %v", name, errPart, err)
	}
	for c, d := range [][]float64{dst.mean, dst.vr} {
		for i := range n {
			d[p.Lo+i] = math.Float64frombits(binary.LittleEndian.Uint64(v[8*(c*n+i):]))
		}
	}
	return nil
}
