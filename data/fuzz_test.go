package data

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The fuzz targets run with the readers' real limits (DefaultMaxBytes,
// DenseFactor): no input may make them allocate more than its content
// backs.

// checkFuzz checks the reader contract: either a valid data set or a
// one-line *ParseError, never both.
func checkFuzz(t *testing.T, ds *Dataset, err error, labels bool) {
	t.Helper()
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error %T %v is not a *ParseError", err, err)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Fatalf("error %q is not one line", err)
		}
		if ds != nil {
			t.Fatal("data set returned with an error")
		}
		return
	}
	if ds == nil || ds.N <= 0 || ds.D <= 0 || len(ds.X) != ds.N*ds.D {
		t.Fatalf("bad shape: %+v", ds)
	}
	if labels != (ds.Y != nil) {
		t.Fatalf("labels %v but Y nil = %v", labels, ds.Y == nil)
	}
	if err := ds.Validate(0); err != nil {
		t.Fatal(err)
	}
}

func FuzzLIBSVM(f *testing.F) {
	for _, s := range []string{
		"1 1:0.5 3:2\n-1 2:-1\n",
		"1 1:0.5 3:2  \r\n-1\t2:-1 \t\r\n",
		"# c\n\n3 qid:7 1:1 # note\n5.5 2:2e-1#x",
		"0\n1 2:3\n",
		"1 5:1 3:2\n",
		"1 0:1\n",
		"nan 1:1\n",
		"1 1:inf\n",
		"1 1:1e400\n",
		"1 1:2:3 x\n",
		"\xef\xbb\xbf7 1:1\n",
		"1 99999999:1\n",
		"",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(3))
	}
	f.Add(gz(f, []byte("1 1:1\n2 2:2\n")), uint8(0))
	f.Add([]byte(bz2Content), uint8(0))
	f.Fuzz(func(t *testing.T, in []byte, dim uint8) {
		o := LIBSVMOptions{Dim: int(dim % 8)}
		ds, err := ReadLIBSVM(bytes.NewReader(in), "f", o)
		checkFuzz(t, ds, err, true)
		if err != nil {
			return
		}
		if o.Dim > 0 && ds.D != o.Dim {
			t.Fatalf("D = %d with Dim %d", ds.D, o.Dim)
		}
		// Writing the result back and reading it again gives it exactly.
		again, err := ReadLIBSVM(strings.NewReader(writeLIBSVM(ds)), "g", LIBSVMOptions{Dim: ds.D})
		if err != nil {
			t.Fatalf("re-reading: %v", err)
		}
		if !sameData(ds, again) {
			t.Fatal("re-read data differ")
		}
	})
}

func FuzzCSV(f *testing.F) {
	for _, s := range []string{
		"1,2,3\n0,4,5\n",
		"y,a,b\n1,2,3\n",
		"\"a,1\",\"the \"\"y\"\"\"\n1,2\n",
		"# c\r\n1, 2 ,3  \r\n\r\n0,4,5\r\n",
		"6.0000 -1.0000  0.5 \n5  1 -0.25\n",
		"1\t2\t3\n1\t\t3\n",
		"1;2;3\n",
		"1,2,3\n1,2\n",
		"1,NaN\n",
		"\"1,2\n",
		"",
	} {
		f.Add([]byte(s), int8(0), uint8(0), uint8(0), false)
		f.Add([]byte(s), int8(-1), uint8(1), uint8(1), false)
		f.Add([]byte(s), int8(1), uint8(4), uint8(2), true)
	}
	f.Add(gz(f, []byte("1,2\n3,4\n")), int8(0), uint8(0), uint8(0), false)
	delims := []rune{0, ',', ';', '\t', ' ', '|'}
	f.Fuzz(func(t *testing.T, in []byte, label int8, delim, header uint8, noLabel bool) {
		o := CSVOptions{Label: int(label), Delimiter: delims[int(delim)%len(delims)],
			Header: Header(header % 3), NoLabel: noLabel}
		ds, err := ReadCSV(bytes.NewReader(in), "f", o)
		checkFuzz(t, ds, err, !noLabel)
	})
}

func FuzzIDX(f *testing.F) {
	img := idxFile(8, []uint32{2, 2, 3}, []byte{0, 255, 51, 1, 2, 3, 10, 20, 30, 40, 50, 60})
	lab := idxFile(8, []uint32{2}, []byte{7, 3})
	f.Add(img, lab, true)
	f.Add(img, lab, false)
	f.Add(gz(f, img), gz(f, lab), true)
	f.Add(idxFile(8, []uint32{2, 2}, []byte{0, 255, 255, 0}), lab, true)
	f.Add(img[:len(img)-1], lab, true)
	f.Add(img, idxFile(8, []uint32{3}, []byte{0, 1, 2}), true)
	f.Add(idxFile(0x0d, []uint32{1, 1, 1}, []byte{0, 0, 0, 0}), lab, true)
	f.Add(idxFile(8, []uint32{1 << 31, 1 << 16, 1 << 16}, nil), lab, false)
	f.Add([]byte{}, []byte{}, true)
	f.Fuzz(func(t *testing.T, img, lab []byte, withLabels bool) {
		var ds *Dataset
		var err error
		if withLabels {
			ds, err = ReadIDX(bytes.NewReader(img), bytes.NewReader(lab), "i", "l")
		} else {
			ds, err = ReadIDX(bytes.NewReader(img), nil, "i", "")
		}
		checkFuzz(t, ds, err, withLabels)
		if err != nil {
			return
		}
		for _, v := range ds.X {
			if v < 0 || v > 1 || math.Round(v*255) != v*255 && math.Abs(math.Round(v*255)-v*255) > 1e-9 {
				t.Fatalf("pixel %v is not a byte/255", v)
			}
		}
		if ds.ImageW*ds.ImageH != 0 && ds.ImageW*ds.ImageH != ds.D {
			t.Fatalf("geometry %dx%d for D = %d", ds.ImageW, ds.ImageH, ds.D)
		}
	})
}

// writeLIBSVM formats ds in LIBSVM text, writing each value exactly.
func writeLIBSVM(ds *Dataset) string {
	var b strings.Builder
	for i := range ds.N {
		b.WriteString(strconv.FormatFloat(ds.Y[i], 'g', -1, 64))
		for j, v := range ds.Row(i) {
			if v != 0 {
				b.WriteString(" " + strconv.Itoa(j+1) + ":" + strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func sameData(a, b *Dataset) bool {
	if a.N != b.N || a.D != b.D || len(a.Y) != len(b.Y) {
		return false
	}
	for i := range a.X {
		if a.X[i] != b.X[i] {
			return false
		}
	}
	for i := range a.Y {
		if a.Y[i] != b.Y[i] {
			return false
		}
	}
	return true
}

// FuzzBinary opens any bytes as a binary data file (with its checksums
// made to match when fix is set) and reads two passes and some rows by
// index: either a one-line *ParseError or finite rows
// whose labels are in the label table, which written again and re-read
// are the same bits.
func FuzzBinary(f *testing.F) {
	raw := validFile(f)
	small := &Dataset{N: 2, D: 2, X: []float64{0.5, -1, 3, 4}, Source: "s", ImageW: 2, ImageH: 1}
	f32, err := os.ReadFile(writeTemp(f, NewMemSource(small), WriteOptions{Float32: true}))
	if err != nil {
		f.Fatal(err)
	}
	for _, in := range [][]byte{
		raw, f32, raw[:70], raw[:len(raw)-1], edit(raw, true, put64(16, 1<<40)),
		edit(raw, false, put64(binHeaderSize+16, math.Float64bits(math.NaN()))),
		edit(raw, true, put32(36, 1)), []byte("PASSGPD\x00"), []byte("1 1:1\n"), nil,
	} {
		f.Add(in, uint8(1), false)
		f.Add(in, uint8(2), true)
	}
	f.Fuzz(func(t *testing.T, in []byte, rows uint8, fix bool) {
		ctx := context.Background()
		if fix && len(in) >= binHeaderSize {
			// Checksums that match let mutations reach the field checks
			// and the decoder.
			binary.LittleEndian.PutUint32(in[48:], castagnoliSum(in[binHeaderSize:]))
			binary.LittleEndian.PutUint32(in[60:], castagnoliSum(in[:60]))
		}
		s, err := NewBinarySource(ctx, bytes.NewReader(in), int64(len(in)), "f", BinaryOptions{})
		checkFuzzErr(t, err)
		if err != nil {
			return
		}
		b := NewBatch(int(rows%8)+1, s.Dim())
		var first pass
		for k := range 2 {
			p, err := fuzzPass(s, b)
			checkFuzzErr(t, err)
			if err != nil {
				return
			}
			if k == 0 {
				first = p
			} else if !sameBits(p.x, first.x) || !sameBits(p.y, first.y) {
				t.Fatal("two passes differ")
			}
		}
		if len(first.x) != s.Len()*s.Dim() {
			t.Fatalf("%d values for %dx%d", len(first.x), s.Len(), s.Dim())
		}
		ds := &Dataset{N: s.Len(), D: s.Dim(), X: first.x, Y: first.y}
		if err := ds.Validate(0); err != nil {
			t.Fatal(err)
		}
		for _, y := range first.y {
			if _, ok := slices.BinarySearch(s.Labels(), y); !ok {
				t.Fatalf("label %v not in %v", y, s.Labels())
			}
		}
		if err := s.ReadRows(ctx, []int{s.Len() - 1, 0}[:min(b.Cap(), 2)], b); err != nil {
			t.Fatal(err)
		}
		var w bytes.Buffer
		w.Write(make([]byte, binHeaderSize))
		hdr, err := encodeBinary(ctx, &w, s, WriteOptions{Float32: s.Float32()})
		if err != nil {
			t.Fatalf("writing again: %v", err)
		}
		again := w.Bytes()
		copy(again, hdr)
		s2, err := NewBinarySource(ctx, bytes.NewReader(again), int64(len(again)), "g", BinaryOptions{Verify: true})
		if err != nil {
			t.Fatalf("re-reading: %v", err)
		}
		if p, err := fuzzPass(s2, b); err != nil || !sameBits(p.x, first.x) || !sameBits(p.y, first.y) {
			t.Fatalf("re-read data differ (%v)", err)
		}
	})
}

// fuzzPass reads a pass of s, returning its error instead of failing.
func fuzzPass(s Source, b *Batch) (pass, error) {
	var p pass
	s.Reset()
	for {
		err := s.Next(context.Background(), b)
		if err == io.EOF {
			return p, nil
		}
		if err != nil {
			return p, err
		}
		p.x = append(p.x, b.X()...)
		if s.Labelled() {
			p.y = append(p.y, b.Y()...)
		}
	}
}

// checkFuzzErr checks that err, if any, is a one-line *ParseError.
func checkFuzzErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		checkFuzz(t, nil, err, false)
	}
}

// FuzzLIBSVMSource checks that streaming a LIBSVM file (OpenLIBSVM's
// scan, then two passes) fails exactly when ReadLIBSVM fails and otherwise gives its
// rows.
func FuzzLIBSVMSource(f *testing.F) {
	for _, s := range []string{
		"1 1:0.5 3:2\n-1 2:-1\n",
		"# c\n\n3 qid:7 1:1 # note\n5.5 2:2e-1#x",
		"0\n1 2:3\n",
		"1 5:1 3:2\n",
		"1 1:inf\n",
		"1 99999999:1\n",
		"",
	} {
		f.Add([]byte(s), uint8(0), uint8(1))
		f.Add([]byte(s), uint8(3), uint8(2))
	}
	f.Fuzz(func(t *testing.T, in []byte, dim, rows uint8) {
		o := LIBSVMOptions{Dim: int(dim % 8)}
		want, werr := ReadLIBSVM(bytes.NewReader(in), "f", o)
		open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(in)), nil }
		s, err := newLIBSVMSource(context.Background(), "f", open, o)
		checkFuzzErr(t, err)
		if err == nil {
			defer s.Close()
			b := NewBatch(int(rows%4)+1, s.Dim())
			var p pass
			for k := 0; k < 2 && err == nil; k++ {
				p, err = fuzzPass(s, b)
				checkFuzzErr(t, err)
			}
			if err == nil && werr == nil && (!sameBits(p.x, want.X) || !sameBits(p.y, want.Y) || s.Len() != want.N) {
				t.Fatalf("stream %v %v (Len %d), ReadLIBSVM %v %v", p.x, p.y, s.Len(), want.X, want.Y)
			}
		}
		if (err == nil) != (werr == nil) {
			t.Fatalf("stream error %v, ReadLIBSVM error %v", err, werr)
		}
	})
}
