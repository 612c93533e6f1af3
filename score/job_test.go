package score

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/internal/testenv"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// jobFixture returns a posterior of kernel k on 40 toy points and 1800
// test rows with labels, of which rows lists 1200 (with gaps, so that a
// row's index and its place in the list differ).
func jobFixture(t testing.TB, k kernel.Kernel) (*ep.Posterior, *mat.Dense, Rows, []float64, []int) {
	t.Helper()
	x, y := testenv.Toy(40, 10)
	post, err := ep.Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	xs, ys := testenv.Toy(1800, 11)
	var rows []int
	for i := 0; i < 1800; i += 3 {
		rows = append(rows, i, i+2)
	}
	return post, x, denseRows{xs}, ys, rows
}

// TestJobRoundTrip: a job's bytes decode to a job whose bytes are
// the same, for each kind of kernel and each flag.
func TestJobRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		k          kernel.Kernel
		sc         *Screen
		wantScreen bool
	}{
		{toyKernel(), nil, false},
		{kernel.SEARD{Var: 1.5, Len2: []float64{0.5, 2}, Jitter: 1e-5}, &Screen{PInc: 0.6}, true},
		{kernel.Poly{Var: 1, Jitter: 1e-6, Degree: 3, Gamma: 0.25}, nil, false},
		{kernel.SEBias{SE: kernel.SE{Var: 1, Len2: 0.7, Jitter: 1e-6}, Bias: 0.3}, &Screen{PInc: 0.9}, true},
	} {
		post, xa, _, _, _ := jobFixture(t, tc.k)
		b, err := NewJob(post, tc.k, xa, tc.sc).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		j, err := UnmarshalJob(b)
		if err != nil {
			t.Fatalf("%s: %v", tc.k.Name(), err)
		}
		if j.Screens() != tc.wantScreen || j.Dim() != 2 || !slices.Equal(j.k.Params(), tc.k.Params()) {
			t.Errorf("%s: decoded screens %v dim %d θ %v", tc.k.Name(), j.Screens(), j.Dim(), j.k.Params())
		}
		if b2, _ := j.MarshalBinary(); !bytes.Equal(b, b2) {
			t.Errorf("%s: the decoded job encodes to other bytes", tc.k.Name())
		}
	}
}

// TestJobDecodeErrors: torn, altered, foreign and other-version
// bytes are refused with ErrJob.
func TestJobDecodeErrors(t *testing.T) {
	post, xa, _, _, _ := jobFixture(t, toyKernel())
	good, _ := NewJob(post, toyKernel(), xa, nil).MarshalBinary()
	flip := func(at int) []byte {
		b := slices.Clone(good)
		b[at] ^= 1
		return b
	}
	// sealed is good altered by f with its checksum recomputed, so that
	// the fields' checks see the change.
	sealed := func(f func([]byte)) []byte {
		b := slices.Clone(good[:len(good)-4])
		f(b)
		return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"torn", good[:len(good)-20]},
		{"a value altered", flip(len(good) / 2)},
		{"other version", flip(len(jobMagic))},
		{"unknown flag", sealed(func(b []byte) { b[len(jobMagic)+1] |= 2 })},
		{"foreign", []byte("PGSCORE1 and some more bytes")},
	} {
		if _, err := UnmarshalJob(tc.b); !errors.Is(err, ErrJob) {
			t.Errorf("%s: error %v, want %v", tc.name, err, ErrJob)
		}
	}
}

// TestJobMatchesPredict: a decoded job's Score on parts of a
// row list that start at multiples of Chunk gives what training's
// PredictContext gives on the whole list, bit for bit (the same
// code on the same chunks), with and without the screen.
func TestJobMatchesPredict(t *testing.T) {
	k := toyKernel()
	post, xa, xs, ys, rows := jobFixture(t, k)
	n := len(rows)
	parts := [][2]int{{0, Chunk}, {Chunk, 3 * Chunk}, {3 * Chunk, n}}
	for _, screens := range []bool{false, true} {
		t.Run(fmt.Sprintf("screen=%v", screens), func(t *testing.T) {
			var sc *Screen
			if screens {
				sc = &Screen{Y: ys, PInc: 0.6}
			}
			wantM, wantV := make([]float64, n), make([]float64, n)
			if err := (&Runner{Threads: 2}).PredictContext(context.Background(), post, k, xa, xs, rows, wantM, wantV, sc); err != nil {
				t.Fatal(err)
			}
			b, _ := NewJob(post, k, xa, sc).MarshalBinary()
			j, err := UnmarshalJob(b)
			if err != nil {
				t.Fatal(err)
			}
			gotM, gotV := make([]float64, n), make([]float64, n)
			y := make([]float64, n)
			for i, r := range rows {
				y[i] = ys[r]
			}
			for _, p := range parts {
				lo, hi := p[0], p[1]
				if err := j.Score(context.Background(), xs, rows[lo:hi], y[lo:hi], gotM[lo:hi], gotV[lo:hi]); err != nil {
					t.Fatal(err)
				}
			}
			if !sameFloatBits(gotM, wantM) || !sameFloatBits(gotV, wantV) {
				t.Errorf("means or variances differ from PredictContext's")
			}
		})
	}
}

// sameFloatBits reports whether a and b hold the same float64 bits.
func sameFloatBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
}

// FuzzUnmarshalJob: no input makes the decoder panic or allocate
// beyond what its length declares, and whatever it accepts encodes to
// bytes that decode to the same bytes again. With seal set the input's
// last four bytes are replaced by its checksum, so that the fields'
// checks, not only the checksum's, see altered bytes.
func FuzzUnmarshalJob(f *testing.F) {
	post, xa, _, _, _ := jobFixture(f, toyKernel())
	for _, sc := range []*Screen{nil, {PInc: 0.6}} {
		b, _ := NewJob(post, toyKernel(), xa, sc).MarshalBinary()
		f.Add(b, false)
		f.Add(b[:len(b)/2], true)
	}
	f.Fuzz(func(t *testing.T, b []byte, seal bool) {
		if seal && len(b) >= 4 {
			b = binary.LittleEndian.AppendUint32(slices.Clone(b[:len(b)-4]), crc32.Checksum(b[:len(b)-4], castagnoli))
		}
		j, err := UnmarshalJob(b)
		if err != nil {
			if !errors.Is(err, ErrJob) {
				t.Fatalf("error %v does not wrap ErrJob", err)
			}
			return
		}
		m, d := j.xa.Dims()
		if 8*(m*d+m*(m+1)/2) > len(b) {
			t.Fatalf("%d bytes decoded to %d active inputs of %d features", len(b), m, d)
		}
		b2, _ := j.MarshalBinary()
		j2, err := UnmarshalJob(b2)
		if err != nil {
			t.Fatalf("re-encoded job refused: %v", err)
		}
		if b3, _ := j2.MarshalBinary(); !bytes.Equal(b2, b3) {
			t.Fatal("re-encoding is not stable")
		}
	})
}
