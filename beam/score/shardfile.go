package score

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/beam/internal/beamrun"
)

// A shard file holds one shard's results, little-endian:
//
//	magic "PGSCORE1"
//	uint64 lo, n, c (probability columns), k (binaries), latent (0 or 1)
//	n·c float64 probabilities, row by row
//	n uint32 decisions
//	n·k float64 latent means and n·k variances, when latent is 1
//	uint32 CRC-32C of everything before it
//
// (a beamrun frame). The float64 values are their bits, so the merge is
// exact.
const shardMagic = "PGSCORE1"

// errShard marks a shard file that is not what its shard's results must be.
var errShard = errors.New("bad shard file")

// encodeShard returns the shard file of sh's results r.
func encodeShard(sh Shard, r *Rows) []byte {
	n, c := r.Prob.Dims()
	k, latent := 0, uint64(0)
	if r.Mean != nil {
		_, k = r.Mean.Dims()
		latent = 1
	}
	header := []uint64{uint64(sh.Lo), uint64(n), uint64(c), uint64(k), latent}
	return beamrun.AppendFrame(shardMagic, header, 8*n*(c+2*k)+4*n, func(b []byte) []byte {
		b = appendDense(b, r.Prob)
		for _, d := range r.Decision {
			b = binary.LittleEndian.AppendUint32(b, uint32(d))
		}
		if r.Mean != nil {
			b = appendDense(b, r.Mean)
			b = appendDense(b, r.Var)
		}
		return b
	})
}

// appendDense appends m's values row by row.
func appendDense(b []byte, m *mat.Dense) []byte {
	r, c := m.Dims()
	for i := range r {
		for j := range c {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.At(i, j)))
		}
	}
	return b
}

// decodeShard decodes the shard file b (named name) of sh, checking that
// it holds sh's rows with c probability columns and, when k > 0, k
// latent columns.
func decodeShard(b []byte, name string, sh Shard, c, k int) (*Rows, error) {
	n := sh.Hi - sh.Lo
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: %w: %s", name, errShard, fmt.Sprintf(format, a...))
	}
	latent := uint64(0)
	if k > 0 {
		latent = 1
	}
	header := []uint64{uint64(sh.Lo), uint64(n), uint64(c), uint64(k), latent}
	p, err := beamrun.OpenFrame(b, shardMagic, header, 8*n*(c+2*k)+4*n)
	if err != nil {
		return nil, bad("%v", err)
	}
	r := &Rows{Decision: make([]int, n)}
	r.Prob, p = readDense(p, n, c)
	for i := range r.Decision {
		d := int(binary.LittleEndian.Uint32(p[4*i:]))
		if d >= c {
			return nil, bad("row %d decides column %d of %d", sh.Lo+i+1, d+1, c)
		}
		r.Decision[i] = d
	}
	p = p[4*n:]
	if k > 0 {
		r.Mean, p = readDense(p, n, k)
		r.Var, _ = readDense(p, n, k)
	}
	return r, nil
}

// readDense reads an r×c matrix row by row from the front of p and
// returns it and the rest of p.
func readDense(p []byte, r, c int) (*mat.Dense, []byte) {
	v := make([]float64, r*c)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	return mat.NewDense(r, c, v), p[8*r*c:]
}
