package passgp

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
	"github.com/passgp-fast/passgp-fast/kernel"
)

// jobFixture returns a posterior of kernel k on 40 toy points and 1800
// test rows with labels, of which rows lists 1200 (with gaps, so that a
// row's index and its place in the list differ).
func jobFixture(t testing.TB, k kernel.Kernel) (*ep.Posterior, *mat.Dense, Rows, []float64, []int) {
	t.Helper()
	x, y := toy(40, 10)
	post, err := ep.Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	xs, ys := toy(1800, 11)
	var rows []int
	for i := 0; i < 1800; i += 3 {
		rows = append(rows, i, i+2)
	}
	return post, x, DenseRows(xs), ys, rows
}

// TestScoreJobRoundTrip: a job's bytes decode to a job whose bytes are
// the same, for each kind of kernel and each flag.
func TestScoreJobRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		k          kernel.Kernel
		sc         *screen
		near       bool
		wantScreen bool
	}{
		{toyKernel(), nil, false, false},
		{kernel.SEARD{Var: 1.5, Len2: []float64{0.5, 2}, Jitter: 1e-5}, &screen{pinc: 0.6}, true, true},
		{kernel.Poly{Var: 1, Jitter: 1e-6, Degree: 3, Gamma: 0.25}, nil, true, false},
		{kernel.SEBias{SE: kernel.SE{Var: 1, Len2: 0.7, Jitter: 1e-6}, Bias: 0.3}, &screen{pinc: 0.9}, false, true},
	} {
		post, xa, _, _, _ := jobFixture(t, tc.k)
		b, err := newScoreJob(post, tc.k, xa, tc.sc, tc.near).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		j, err := UnmarshalScoreJob(b)
		if err != nil {
			t.Fatalf("%s: %v", tc.k.Name(), err)
		}
		if j.Screens() != tc.wantScreen || j.Near() != tc.near || j.Dim() != 2 || !slices.Equal(j.k.Params(), tc.k.Params()) {
			t.Errorf("%s: decoded screens %v near %v dim %d θ %v", tc.k.Name(), j.Screens(), j.Near(), j.Dim(), j.k.Params())
		}
		if b2, _ := j.MarshalBinary(); !bytes.Equal(b, b2) {
			t.Errorf("%s: the decoded job encodes to other bytes", tc.k.Name())
		}
	}
}

// TestScoreJobDecodeErrors: torn, altered, foreign and other-version
// bytes are refused with ErrScoreJob.
func TestScoreJobDecodeErrors(t *testing.T) {
	post, xa, _, _, _ := jobFixture(t, toyKernel())
	good, _ := newScoreJob(post, toyKernel(), xa, nil, false).MarshalBinary()
	flip := func(at int) []byte {
		b := slices.Clone(good)
		b[at] ^= 1
		return b
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"torn", good[:len(good)-20]},
		{"a value altered", flip(len(good) / 2)},
		{"other version", flip(len(jobMagic))},
		{"foreign", []byte("PGSCORE1 and some more bytes")},
	} {
		if _, err := UnmarshalScoreJob(tc.b); !errors.Is(err, ErrScoreJob) {
			t.Errorf("%s: error %v, want %v", tc.name, err, ErrScoreJob)
		}
	}
}

// TestScoreJobMatchesPredictRows: a decoded job's Score on parts of a
// row list that start at multiples of ScoreChunk gives what training's
// predictRowsContext gives on the whole list, bit for bit (the same
// code on the same chunks), with and without the screen and the near
// correlations.
func TestScoreJobMatchesPredictRows(t *testing.T) {
	k := toyKernel()
	post, xa, xs, ys, rows := jobFixture(t, k)
	g, ok := gramNearOf(k)
	if !ok {
		t.Fatal("the toy kernel gives no Gram-block correlations")
	}
	n := len(rows)
	parts := [][2]int{{0, ScoreChunk}, {ScoreChunk, 3 * ScoreChunk}, {3 * ScoreChunk, n}}
	for _, tc := range []struct{ screen, near bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		t.Run(fmt.Sprintf("screen=%v,near=%v", tc.screen, tc.near), func(t *testing.T) {
			var sc *screen
			if tc.screen {
				sc = &screen{y: ys, pinc: 0.6}
			}
			want := newScores(n, tc.near)
			if err := (&runner{threads: 2}).predictRowsContext(context.Background(), post, k, xa, xs, rows, want[0], want[1], want[2], g, sc); err != nil {
				t.Fatal(err)
			}
			b, _ := newScoreJob(post, k, xa, sc, tc.near).MarshalBinary()
			j, err := UnmarshalScoreJob(b)
			if err != nil {
				t.Fatal(err)
			}
			got := newScores(n, tc.near)
			y := gather(ys, rows)
			for _, p := range parts {
				lo, hi := p[0], p[1]
				var nr []float64
				if tc.near {
					nr = got[2][lo:hi]
				}
				if err := j.Score(context.Background(), xs, rows[lo:hi], y[lo:hi], got[0][lo:hi], got[1][lo:hi], nr); err != nil {
					t.Fatal(err)
				}
			}
			for c, name := range []string{"means", "variances", "correlations"} {
				if !sameFloatBits(got[c], want[c]) {
					t.Errorf("%s differ from predictRows's", name)
				}
			}
		})
	}
}

// newScores returns the means, variances and (with near) correlations
// of n rows.
func newScores(n int, near bool) [3][]float64 {
	s := [3][]float64{make([]float64, n), make([]float64, n)}
	if near {
		s[2] = make([]float64, n)
	}
	return s
}

// sameFloatBits reports whether a and b hold the same float64 bits.
func sameFloatBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
}

// FuzzUnmarshalScoreJob: no input makes the decoder panic or allocate
// beyond what its length declares, and whatever it accepts encodes to
// bytes that decode to the same bytes again. With seal set the input's
// last four bytes are replaced by its checksum, so that the fields'
// checks, not only the checksum's, see altered bytes.
func FuzzUnmarshalScoreJob(f *testing.F) {
	post, xa, _, _, _ := jobFixture(f, toyKernel())
	for _, sc := range []*screen{nil, {pinc: 0.6}} {
		b, _ := newScoreJob(post, toyKernel(), xa, sc, sc != nil).MarshalBinary()
		f.Add(b, false)
		f.Add(b[:len(b)/2], true)
	}
	f.Fuzz(func(t *testing.T, b []byte, seal bool) {
		if seal && len(b) >= 4 {
			b = binary.LittleEndian.AppendUint32(slices.Clone(b[:len(b)-4]), crc32.Checksum(b[:len(b)-4], castagnoli))
		}
		j, err := UnmarshalScoreJob(b)
		if err != nil {
			if !errors.Is(err, ErrScoreJob) {
				t.Fatalf("error %v does not wrap ErrScoreJob", err)
			}
			return
		}
		m, d := j.xa.Dims()
		if 8*(m*d+m*(m+1)/2) > len(b) {
			t.Fatalf("%d bytes decoded to %d active inputs of %d features", len(b), m, d)
		}
		b2, _ := j.MarshalBinary()
		j2, err := UnmarshalScoreJob(b2)
		if err != nil {
			t.Fatalf("re-encoded job refused: %v", err)
		}
		if b3, _ := j2.MarshalBinary(); !bytes.Equal(b2, b3) {
			t.Fatal("re-encoding is not stable")
		}
	})
}
