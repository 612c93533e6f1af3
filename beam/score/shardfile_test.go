package score

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestShardFile: a shard file decodes to the bits that were encoded, and
// a file that is torn, altered, or of another shard or shape is refused.
// shardHeader is the length of a shard file's magic and header fields.
const shardHeader = len(shardMagic) + 5*8

func TestShardFile(t *testing.T) {
	sh := Shard{Index: 2, Lo: 2 * Align, Hi: 2*Align + 3}
	r := &Rows{
		Prob:     mat.NewDense(3, 2, []float64{0.25, 0.75, math.SmallestNonzeroFloat64, 1, 0.5, 0.5}),
		Decision: []int{1, 1, 0},
		Mean:     mat.NewDense(3, 1, []float64{-1.5, math.Copysign(0, -1), 2}),
		Var:      mat.NewDense(3, 1, []float64{0.1, 0.2, 1e-300}),
	}
	good := encodeShard(sh, r)
	got, err := decodeShard(good, "f", sh, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !sameBits(got.Prob, r.Prob) || !sameBits(got.Mean, r.Mean) || !sameBits(got.Var, r.Var) {
		t.Error("decoded values differ from the encoded bits")
	}
	for i, d := range got.Decision {
		if d != r.Decision[i] {
			t.Errorf("row %d: decision %d, want %d", i+1, d, r.Decision[i])
		}
	}
	flip := func(at int) []byte {
		b := append([]byte(nil), good...)
		b[at] ^= 1
		return b
	}
	for _, tc := range []struct {
		name string
		b    []byte
		sh   Shard
		c, k int
	}{
		{"torn", good[:len(good)-9], sh, 2, 1},
		{"a value altered", flip(shardHeader + 3), sh, 2, 1},
		{"another shard", good, Shard{Index: 1, Lo: Align, Hi: Align + 3}, 2, 1},
		{"other columns", good, sh, 3, 1},
		{"no latents asked", good, sh, 2, 0},
	} {
		if _, err := decodeShard(tc.b, "f", tc.sh, tc.c, tc.k); !errors.Is(err, errShard) {
			t.Errorf("%s: error %v, want %v", tc.name, err, errShard)
		}
	}
}
