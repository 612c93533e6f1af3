package data

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// randDataset returns a seeded n×d data set with k classes (unlabelled
// when k is 0), its values spanning signs, zeros, subnormals and large
// magnitudes so that round trips are tested on awkward bits.
func randDataset(seed uint64, n, d, k int) *Dataset {
	r := rand.New(rand.NewPCG(seed, 7))
	ds := &Dataset{N: n, D: d, X: make([]float64, n*d), Source: "rand"}
	special := []float64{0, math.Copysign(0, -1), 5e-324, -1e300, 1e-310, 3.4e38}
	for i := range ds.X {
		if r.IntN(10) == 0 {
			ds.X[i] = special[r.IntN(len(special))]
		} else {
			ds.X[i] = r.NormFloat64() * math.Exp(r.NormFloat64())
		}
	}
	if k > 0 {
		ds.Y = make([]float64, n)
		for i := range ds.Y {
			ds.Y[i] = float64(r.IntN(k)) - 0.5
		}
	}
	return ds
}

// writeTemp writes src to a binary file in a test directory.
func writeTemp(t testing.TB, src Source, o WriteOptions) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "d.pgd")
	if err := WriteBinary(context.Background(), p, src, o); err != nil {
		t.Fatal(err)
	}
	return p
}

// pass is one pass of a source: the rows, labels and batch starts.
type pass struct {
	x, y   []float64
	starts []int
}

// readPass reads one pass of src in batches of rows.
func readPass(t testing.TB, src Source, rows int) pass {
	t.Helper()
	if err := src.Reset(); err != nil {
		t.Fatal(err)
	}
	b := NewBatch(rows, src.Dim())
	var p pass
	for {
		err := src.Next(context.Background(), b)
		if err == io.EOF {
			if b.Len() != 0 {
				t.Fatalf("io.EOF with %d rows", b.Len())
			}
			return p
		}
		if err != nil {
			t.Fatal(err)
		}
		if b.Len() == 0 || b.Len() > rows {
			t.Fatalf("batch of %d rows, capacity %d", b.Len(), rows)
		}
		p.x = append(p.x, b.X()...)
		if src.Labelled() {
			p.y = append(p.y, b.Y()...)
		}
		p.starts = append(p.starts, b.Start)
	}
}

// sameBits reports whether a and b hold the same float64 bits.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
}

func TestBinaryRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name        string
		n, d, k     int
		float32     bool
		imgW, imgH  int
		rows, chunk []int
	}{
		{name: "labelled", n: 37, d: 5, k: 3, rows: []int{1, 4, 37, 100}, chunk: []int{0, 1, 3}},
		{name: "unlabelled", n: 20, d: 6, imgW: 3, imgH: 2, rows: []int{1, 7, 21}, chunk: []int{0, 2}},
		{name: "one row one column", n: 1, d: 1, k: 1, rows: []int{1, 2}, chunk: []int{0}},
		{name: "float32", n: 25, d: 4, k: 2, float32: true, rows: []int{1, 6, 30}, chunk: []int{0, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := randDataset(3, tc.n, tc.d, tc.k)
			ds.ImageW, ds.ImageH = tc.imgW, tc.imgH
			want := slices.Clone(ds.X)
			if tc.float32 {
				for i, v := range ds.X {
					if math.Abs(v) > math.MaxFloat32 {
						ds.X[i] = math.Copysign(math.MaxFloat32, v)
					}
					want[i] = float64(float32(ds.X[i]))
				}
			}
			p := writeTemp(t, NewMemSource(ds), WriteOptions{Float32: tc.float32})
			s, err := OpenBinary(context.Background(), p, BinaryOptions{Verify: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Len() != tc.n || s.Dim() != tc.d || s.Labelled() != (tc.k > 0) || s.Float32() != tc.float32 {
				t.Fatalf("Len %d Dim %d Labelled %v Float32 %v", s.Len(), s.Dim(), s.Labelled(), s.Float32())
			}
			if w, h := s.ImageShape(); w != tc.imgW || h != tc.imgH {
				t.Errorf("image %dx%d, want %dx%d", w, h, tc.imgW, tc.imgH)
			}
			if !slices.Equal(s.Labels(), ds.Classes()) {
				t.Errorf("Labels %v, want %v", s.Labels(), ds.Classes())
			}
			for _, chunk := range tc.chunk {
				if chunk > 0 {
					s.chunk = chunk // several reads per batch
				}
				for _, rows := range tc.rows {
					for range 2 { // a second pass gives the same
						got := readPass(t, s, rows)
						if !sameBits(got.x, want) || !sameBits(got.y, ds.Y) {
							t.Fatalf("chunk %d, batches of %d: data differ", chunk, rows)
						}
						if len(got.starts) != (tc.n+rows-1)/rows {
							t.Fatalf("%d batches of %d for %d rows", len(got.starts), rows, tc.n)
						}
						for i, st := range got.starts {
							if st != i*rows {
								t.Fatalf("batch %d starts at %d", i, st)
							}
						}
					}
				}
			}
			back, err := Load(p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if back.N != tc.n || back.D != tc.d || !sameBits(back.X, want) || !sameBits(back.Y, ds.Y) ||
				back.ImageW != tc.imgW || back.ImageH != tc.imgH || back.Source != p {
				t.Errorf("Load differs: %dx%d image %dx%d source %q", back.N, back.D, back.ImageW, back.ImageH, back.Source)
			}
		})
	}
}

// TestSourcesAgree: a Dataset and its binary file give the same batches.
func TestSourcesAgree(t *testing.T) {
	ds := randDataset(5, 50, 3, 4)
	fs, err := OpenBinary(context.Background(), writeTemp(t, NewMemSource(ds), WriteOptions{}), BinaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	ms := NewMemSource(ds)
	for _, rows := range []int{1, 2, 7, 50, 64} {
		for _, chunk := range []int{1, 3, 1 << 20} {
			fs.chunk, ms.chunk = chunk, chunk
			a, b := readPass(t, ms, rows), readPass(t, fs, rows)
			if !sameBits(a.x, b.x) || !sameBits(a.y, b.y) || !slices.Equal(a.starts, b.starts) {
				t.Fatalf("batches of %d, chunk %d: sources differ", rows, chunk)
			}
			if !sameBits(a.x, ds.X) || !sameBits(a.y, ds.Y) {
				t.Fatalf("batches of %d: MemSource differs from the Dataset", rows)
			}
		}
	}
}

// TestNextAllocs: a pass reuses the caller's batch and the source's buffer.
func TestNextAllocs(t *testing.T) {
	ds := randDataset(6, 40, 3, 2)
	fs, err := OpenBinary(context.Background(), writeTemp(t, NewMemSource(ds), WriteOptions{}), BinaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	ctx := context.Background()
	for _, src := range []RowReader{NewMemSource(ds), fs} {
		b := NewBatch(8, 3)
		idx := []int{3, 4, 5, 0, 39}
		allocs := testing.AllocsPerRun(10, func() {
			src.Reset()
			for src.Next(ctx, b) == nil {
				if b.Dense().At(0, 0) != b.Row(0)[0] {
					t.Fatal("Dense does not view the rows")
				}
			}
			if err := src.ReadRows(ctx, idx, b); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%T: %v allocations per pass", src, allocs)
		}
	}
}

// cancelAfter is a context that is cancelled after its Err has been asked
// for n times.
type cancelAfter struct {
	context.Context
	n int
}

func (c *cancelAfter) Err() error {
	if c.n == 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

// countingReaderAt counts reads after the file was opened.
type countingReaderAt struct {
	r     io.ReaderAt
	reads int
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.reads++
	return c.r.ReadAt(p, off)
}

// TestCancel: Next, ReadRows and Verify stop at the first chunk boundary
// after ctx is cancelled.
func TestCancel(t *testing.T) {
	ds := randDataset(8, 30, 2, 2)
	raw, err := os.ReadFile(writeTemp(t, NewMemSource(ds), WriteOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	const chunk = 4
	for _, checks := range []int{0, 1, 3} {
		cr := &countingReaderAt{r: bytesReaderAt(raw)}
		fs, err := NewBinarySource(context.Background(), cr, int64(len(raw)), "f", BinaryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ms := NewMemSource(ds)
		fs.chunk, ms.chunk = chunk, chunk
		for _, src := range []RowReader{ms, fs} {
			cr.reads = 0
			b := NewBatch(30, 2)
			err := src.Next(&cancelAfter{context.Background(), checks}, b)
			if !errors.Is(err, context.Canceled) || b.Len() != checks*chunk {
				t.Errorf("%T after %d checks: Next read %d rows, error %v; want %d, context.Canceled", src, checks, b.Len(), err, checks*chunk)
			}
			// The pass has ended: the error stays until Reset.
			if err := src.Next(context.Background(), b); !errors.Is(err, context.Canceled) || b.Len() != 0 {
				t.Errorf("%T: Next after the error: %d rows, error %v", src, b.Len(), err)
			}
			err = src.ReadRows(&cancelAfter{context.Background(), checks}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, b)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%T: ReadRows error %v", src, err)
			}
			reads := cr.reads
			if p := readPass(t, src, 7); !sameBits(p.x, ds.X) || !sameBits(p.y, ds.Y) {
				t.Errorf("%T: the pass after Reset differs", src)
			}
			cr.reads = reads
		}
		if cr.reads != 2*checks {
			t.Errorf("after %d checks the file was read %d times, want %d", checks, cr.reads, 2*checks)
		}
		cr.reads = 0
		fs.chunk = chunk
		if err := fs.verify(&cancelAfter{context.Background(), checks}); !errors.Is(err, context.Canceled) || cr.reads != checks {
			t.Errorf("verify after %d checks: %d reads, error %v", checks, cr.reads, err)
		}
	}
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// plainSource hides the RowReader of a source, as a FileSource has none.
type plainSource struct{ Source }

func TestGather(t *testing.T) {
	ds := randDataset(9, 23, 3, 3)
	ds.ImageW, ds.ImageH = 3, 1
	fs, err := OpenBinary(context.Background(), writeTemp(t, NewMemSource(ds), WriteOptions{}), BinaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	fs.chunk = 2 // runs of consecutive rows span reads
	for _, idx := range [][]int{
		{},
		{0},
		{22, 0, 5, 5, 6, 7, 8, 9, 1, 22, 3},
		{4, 5, 6, 7, 8},
	} {
		want := ds.Subset(idx)
		for _, src := range []Source{NewMemSource(ds), fs, plainSource{NewMemSource(ds)}, plainSource{fs}} {
			got, err := Gather(context.Background(), src, idx)
			if err != nil {
				t.Fatal(err)
			}
			wantW := 0
			if _, ok := src.(ImageShaper); ok {
				wantW = 3
			}
			if got.N != len(idx) || !sameBits(got.X, want.X) || !sameBits(got.Y, want.Y) || got.ImageW != wantW {
				t.Errorf("%T rows %v: got %v %v, want %v %v", src, idx, got.X, got.Y, want.X, want.Y)
			}
		}
	}
	for _, idx := range [][]int{{-1}, {23}, {0, 30}} {
		for _, src := range []Source{fs, plainSource{fs}} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%T: Gather of rows %v did not panic", src, idx)
					}
				}()
				Gather(context.Background(), src, idx)
			}()
		}
	}
}

// TestWriteBinaryErrors: bad data are refused with an error naming the
// example, and a failed write leaves the old file and no temporary file.
func TestWriteBinaryErrors(t *testing.T) {
	many := &Dataset{N: MaxBinaryLabels + 1, D: 1, X: make([]float64, MaxBinaryLabels+1), Y: make([]float64, MaxBinaryLabels+1), Source: "many"}
	for i := range many.Y {
		many.Y[i] = float64(i)
	}
	for _, tc := range []struct {
		name string
		ds   *Dataset
		o    WriteOptions
		want string
	}{
		{"NaN value", &Dataset{N: 2, D: 2, X: []float64{1, 2, 3, math.NaN()}, Y: []float64{0, 1}, Source: "s"}, WriteOptions{}, "s: example 2 feature 2: value NaN is not finite"},
		{"infinite label", &Dataset{N: 2, D: 1, X: []float64{1, 2}, Y: []float64{0, math.Inf(1)}, Source: "s"}, WriteOptions{}, "s: example 2: label +Inf is not finite"},
		{"beyond float32", &Dataset{N: 1, D: 2, X: []float64{1, 1e39}, Source: "s"}, WriteOptions{Float32: true}, "s: example 1 feature 2: value 1e+39 is beyond float32's range"},
		{"too many labels", many, WriteOptions{}, "many: example 65537: more than 65536 distinct labels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "d.pgd")
			if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			err := WriteBinary(context.Background(), p, NewMemSource(tc.ds), tc.o)
			checkError(t, nil, err, tc.want)
			if b, _ := os.ReadFile(p); string(b) != "old" {
				t.Errorf("file changed to %d bytes", len(b))
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("%d files in the directory, want 1", len(ents))
			}
		})
	}
}

// validFile returns a small binary file: 3 examples of 2 features, 2
// classes.
func validFile(t testing.TB) []byte {
	t.Helper()
	ds := &Dataset{N: 3, D: 2, X: []float64{1, 2, 3, 4, 5, 6}, Y: []float64{-1, 1, -1}, Source: "v"}
	raw, err := os.ReadFile(writeTemp(t, NewMemSource(ds), WriteOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// edit returns a copy of raw changed by f, with the header checksum
// recomputed when fix is set.
func edit(raw []byte, fix bool, f func(b []byte) []byte) []byte {
	b := f(slices.Clone(raw))
	if fix && len(b) >= binHeaderSize {
		h := castagnoliSum(b[:60])
		binary.LittleEndian.PutUint32(b[60:], h)
	}
	return b
}

func put32(off int, v uint32) func([]byte) []byte {
	return func(b []byte) []byte { binary.LittleEndian.PutUint32(b[off:], v); return b }
}

func put64(off int, v uint64) func([]byte) []byte {
	return func(b []byte) []byte { binary.LittleEndian.PutUint64(b[off:], v); return b }
}
