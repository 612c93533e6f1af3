package data

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes content to name in a test directory.
func writeFile(t testing.TB, name string, content []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// openText opens path as a FileSource of the given format.
func openText(path, format string, lo LIBSVMOptions, co CSVOptions) (*FileSource, error) {
	if format == "libsvm" {
		return OpenLIBSVM(context.Background(), path, lo)
	}
	return OpenCSV(path, co)
}

// TestFileSources: streaming a text file gives, in any batch size and in
// every pass, the rows that reading it whole gives, and so does its binary
// conversion.
func TestFileSources(t *testing.T) {
	const libsvm = "# c\n1 1:0.5 3:2\n-1 2:-1\n\n2 1:1e-3 2:4 # x\n0\n1 3:7\n"
	const csv = "y,a,b\n1,0.5,2\n-1,-1,0\n\n2,1e-3,4\n# c\n0,0,0\n1,7,7\n"
	for _, tc := range []struct {
		name, format string
		in           []byte
		lo           LIBSVMOptions
		co           CSVOptions
		lenBefore    int
	}{
		{name: "libsvm", format: "libsvm", in: []byte(libsvm), lenBefore: 5},
		{name: "libsvm gzip", format: "libsvm", in: gz(t, []byte(libsvm)), lenBefore: 5},
		{name: "libsvm min dim", format: "libsvm", in: []byte(libsvm), lo: LIBSVMOptions{MinDim: 5}, lenBefore: 5},
		{name: "libsvm dim", format: "libsvm", in: []byte(libsvm), lo: LIBSVMOptions{Dim: 4}, lenBefore: -1},
		{name: "csv", format: "csv", in: []byte(csv), lenBefore: -1},
		{name: "csv gzip no label", format: "csv", in: gz(t, []byte(csv)), co: CSVOptions{NoLabel: true}, lenBefore: -1},
		{name: "csv last label", format: "csv", in: []byte(csv), co: CSVOptions{Label: -1}, lenBefore: -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "f", tc.in)
			want, err := Load(path, Options{Format: Format(tc.format), Dim: tc.lo.Dim, MinDim: tc.lo.MinDim, CSV: tc.co})
			if err != nil {
				t.Fatal(err)
			}
			s, err := openText(path, tc.format, tc.lo, tc.co)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Len() != tc.lenBefore || s.Dim() != want.D || s.Labelled() != (want.Y != nil) || s.Name() != path {
				t.Fatalf("Len %d Dim %d Labelled %v Name %q", s.Len(), s.Dim(), s.Labelled(), s.Name())
			}
			for _, rows := range []int{1, 2, want.N, want.N + 3} {
				for range 2 {
					p := readPass(t, s, rows)
					if !sameBits(p.x, want.X) || !sameBits(p.y, want.Y) {
						t.Fatalf("batches of %d: got %v %v, want %v %v", rows, p.x, p.y, want.X, want.Y)
					}
				}
			}
			if s.Len() != want.N {
				t.Errorf("Len %d after a pass, want %d", s.Len(), want.N)
			}
			got, err := Gather(context.Background(), s, []int{4, 0, 4})
			if err != nil {
				t.Fatal(err)
			}
			if sub := want.Subset([]int{4, 0, 4}); !sameBits(got.X, sub.X) || !sameBits(got.Y, sub.Y) {
				t.Errorf("Gather: %v %v, want %v %v", got.X, got.Y, sub.X, sub.Y)
			}
			back, err := Load(writeTemp(t, s, WriteOptions{}), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !sameBits(back.X, want.X) || !sameBits(back.Y, want.Y) {
				t.Error("binary conversion differs")
			}
		})
	}
}

// TestFileSourceErrors: bad content is reported with the file and line,
// when the source is opened (what the scan or the first record shows) or
// by Next in the pass that reaches it.
func TestFileSourceErrors(t *testing.T) {
	for _, tc := range []struct {
		name, format, in string
		lo               LIBSVMOptions
		co               CSVOptions
		open, next       string
	}{
		{name: "libsvm order", format: "libsvm", in: "1 1:1\n1 2:1\n1 5:1 3:2\n", open: ":3: feature index 3 not greater than previous 5"},
		{name: "libsvm order with dim", format: "libsvm", in: "1 1:1\n1 2:1\n1 5:1 3:2\n", lo: LIBSVMOptions{Dim: 6}, next: ":3: feature index 3 not greater than previous 5"},
		{name: "libsvm beyond dim", format: "libsvm", in: "1 1:1\n1 7:1\n", lo: LIBSVMOptions{Dim: 6}, next: ":2: feature index 7 beyond dimension 6"},
		{name: "libsvm empty", format: "libsvm", in: "", open: ": empty file"},
		{name: "libsvm empty with dim", format: "libsvm", in: "", lo: LIBSVMOptions{Dim: 2}, next: ": empty file"},
		{name: "libsvm comments", format: "libsvm", in: "# a\n\n", open: ": no examples (2 lines, all blank or comments)"},
		{name: "libsvm no features", format: "libsvm", in: "1\n2\n", open: ": no features: every example is empty"},
		{name: "libsvm too sparse", format: "libsvm", in: "1 1:1\n1 99999999:1\n", open: ":2: 2 examples x 99999999 features would be"},
		{name: "libsvm bad value", format: "libsvm", in: "1 1:1\n1 2:x\n", open: `:2: malformed value of feature 2 "x"`},
		{name: "csv bad value", format: "csv", in: "1,2\n3,4\n5,y\n", next: `:3: malformed value in column 2 "y"`},
		{name: "csv fields", format: "csv", in: "1,2\n3,4,5\n", next: ":2: 3 fields, want 2 as on line 1"},
		{name: "csv label column", format: "csv", in: "a,b\n1,2\n", co: CSVOptions{LabelName: "y"}, open: `:1: no column named "y" in the header`},
		{name: "csv only header", format: "csv", in: "a,b\n", open: ": no examples (only a header)"},
		{name: "csv empty", format: "csv", in: "", open: ": empty file"},
		{name: "csv delimiter", format: "csv", in: "1,2\n", co: CSVOptions{Delimiter: '"'}, open: `: invalid CSV delimiter '"'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "f", []byte(tc.in))
			s, err := openText(path, tc.format, tc.lo, tc.co)
			if tc.open != "" {
				checkError(t, nil, err, path+tc.open)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			b := NewBatch(1, s.Dim())
			for err = nil; err == nil; err = s.Next(context.Background(), b) {
			}
			if err == io.EOF {
				t.Fatal("the pass ended without an error")
			}
			checkError(t, nil, err, path+tc.next)
		})
	}
}

// TestFileSourceChanged: a file whose layout changes between passes is an
// error, not a misread.
func TestFileSourceChanged(t *testing.T) {
	path := writeFile(t, "f.csv", []byte("1,2,3\n4,5,6\n"))
	s, err := OpenCSV(path, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	readPass(t, s, 4)
	if err := os.WriteFile(path, []byte("1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Reset()
	err = s.Next(context.Background(), NewBatch(4, 2))
	checkError(t, nil, err, path+":1: 1 features, want 2")
}

// TestFileSourceCancel: Next stops at the first chunk of rows after ctx
// is cancelled, as do the LIBSVM scan and the binary conversion.
func TestFileSourceCancel(t *testing.T) {
	path := writeFile(t, "f", []byte(strings.Repeat("1 1:1 2:2\n-1 2:3\n", 10)))
	s, err := OpenLIBSVM(context.Background(), path, LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.chunk = 3
	for _, checks := range []int{0, 1, 4} {
		s.Reset()
		b := NewBatch(20, 2)
		err := s.Next(&cancelAfter{context.Background(), checks}, b)
		if !errors.Is(err, context.Canceled) || b.Len() != 3*checks {
			t.Errorf("after %d checks: %d rows, error %v", checks, b.Len(), err)
		}
		if err := s.Next(context.Background(), b); !errors.Is(err, context.Canceled) {
			t.Errorf("Next after the error: %v", err)
		}
	}
	if _, err := OpenLIBSVM(&cancelAfter{context.Background(), 0}, path, LIBSVMOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("scan: error %v", err)
	}
	err = WriteBinary(&cancelAfter{context.Background(), 1}, filepath.Join(t.TempDir(), "d"), s, WriteOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("WriteBinary: error %v", err)
	}
}

// TestConvertUSPS converts the USPS training file to binary in one
// streaming pass and reads it back as Load reads the text.
func TestConvertUSPS(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: three passes over bzip2 text")
	}
	path := sharedFile(t, "usps.train.bz2")
	want, err := Load(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenLIBSVM(context.Background(), path, LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	bin := writeTemp(t, s, WriteOptions{})
	got, err := ReadBinary(context.Background(), bin)
	if err != nil {
		t.Fatal(err)
	}
	if got.N != 7291 || got.D != 256 || !sameBits(got.X, want.X) || !sameBits(got.Y, want.Y) {
		t.Errorf("%dx%d, differs from the text", got.N, got.D)
	}
}

// TestOpenSource: OpenSource detects the format as Load does and streams
// what Load reads.
func TestOpenSource(t *testing.T) {
	dir := t.TempDir()
	ds := randDataset(4, 6, 2, 2)
	bin := filepath.Join(dir, "d.bin")
	if err := WriteBinary(context.Background(), bin, NewMemSource(ds), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"a.txt":                  []byte("1 1:0.5 3:2\n-1 2:-1\n"),
		"b.data":                 gz(t, []byte("y,a\n1,2\n0,3\n")),
		"x-images-idx3-ubyte":    idxFile(8, []uint32{2, 1, 2}, []byte{0, 255, 51, 1}),
		"x-labels-idx1-ubyte":    idxFile(8, []uint32{2}, []byte{7, 3}),
		"forced.csv":             []byte("1 1:0.5\n"),
		"x-labels-idx1-ubyte.gz": gz(t, idxFile(8, []uint32{2}, []byte{7, 3})),
	}
	for name, b := range files {
		writeAt(t, filepath.Join(dir, name), b)
	}
	for _, tc := range []struct {
		name string
		o    Options
		kind string
		err  string
	}{
		{name: "d.bin", kind: "*data.BinarySource"},
		{name: "a.txt", kind: "*data.FileSource"},
		{name: "b.data", o: Options{Format: CSV}, kind: "*data.FileSource"},
		{name: "x-images-idx3-ubyte", kind: "*data.FileSource"},
		{name: "forced.csv", o: Options{Format: LIBSVM}, kind: "*data.FileSource"},
		{name: "d.bin", o: Options{Dim: 3}, err: ": 2 features, want 3"},
		{name: "a.txt", o: Options{Dim: 2}, err: ":1: feature index 3 beyond dimension 2"},
		{name: "x-labels-idx1-ubyte.gz", err: ": an IDX label file"},
		{name: "a.txt", o: Options{Format: Binary}, err: ": not a passgp-fast binary data file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			src, err := OpenSource(context.Background(), path, tc.o)
			if tc.err != "" {
				if err == nil {
					// A LIBSVM width error comes with the pass.
					_, err = Gather(context.Background(), src, []int{1})
				}
				checkError(t, nil, err, path+tc.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			if got := fmt.Sprintf("%T", src); got != tc.kind {
				t.Errorf("%T, want %s", src, tc.kind)
			}
			want, err := Load(path, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			p := readPass(t, src, 4)
			if !sameBits(p.x, want.X) || !sameBits(p.y, want.Y) {
				t.Errorf("got %v %v, want %v %v", p.x, p.y, want.X, want.Y)
			}
		})
	}
}
