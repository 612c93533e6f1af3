package data

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// benchData is a seeded 10000×64 data set with 6-digit values, about half
// of them zero, as LIBSVM text of that kind is written.
func benchData() *Dataset {
	const n, d = 10000, 64
	r := rand.New(rand.NewPCG(1, 2))
	ds := &Dataset{N: n, D: d, X: make([]float64, n*d), Y: make([]float64, n), Source: "bench"}
	for i := range ds.X {
		if r.IntN(2) == 0 {
			v, _ := strconv.ParseFloat(strconv.FormatFloat(r.NormFloat64(), 'f', 6, 64), 64)
			ds.X[i] = v
		}
	}
	for i := range ds.Y {
		ds.Y[i] = float64(2*r.IntN(2) - 1)
	}
	return ds
}

// BenchmarkReadPass reads one pass of the same data from a binary file
// and from a LIBSVM file (FileSource; both in the page cache) in batches
// of 256 rows, and by parsing the LIBSVM text from memory into a Dataset
// (ReadLIBSVM). MB/s counts
// each format's own bytes; rows/s compares them.
func BenchmarkReadPass(b *testing.B) {
	ds := benchData()
	text := []byte(writeLIBSVM(ds))
	path := writeTemp(b, NewMemSource(ds), WriteOptions{})
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("binary", func(b *testing.B) {
		s, err := OpenBinary(ctx, path, BinaryOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		batch := NewBatch(256, ds.D)
		b.SetBytes(st.Size())
		for b.Loop() {
			s.Reset()
			for {
				if err := s.Next(ctx, batch); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(ds.N)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("libsvm-stream", func(b *testing.B) {
		s, err := OpenLIBSVM(ctx, writeFile(b, "bench.libsvm", text), LIBSVMOptions{Dim: ds.D})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		batch := NewBatch(256, ds.D)
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			s.Reset()
			for {
				if err := s.Next(ctx, batch); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(ds.N)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("libsvm", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, err := ReadLIBSVM(bytes.NewReader(text), "bench", LIBSVMOptions{Dim: ds.D}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(ds.N)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}
