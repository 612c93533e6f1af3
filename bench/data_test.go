package bench

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/internal/testenv"
)

// sharedData is ../shared/data from the repository root.
const sharedData = "../../shared/data"

// readShared returns the decompressed content of a file in sharedData,
// skipping the benchmark when it is absent.
func readShared(b *testing.B, name string) []byte {
	b.Helper()
	p := filepath.Join(sharedData, name)
	r, err := data.Open(p)
	if err != nil {
		if os.IsNotExist(err) {
			testenv.MissingShared(b, "%s not available", p)
		}
		b.Fatal(err)
	}
	defer r.Close()
	c, err := io.ReadAll(r)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkReadUSPS reads USPS train (7291×256): parsing alone from
// memory (LIBSVM and the original dense text as CSV), and Load from the
// bzip2 file, decompression included. MB/s counts decompressed bytes.
func BenchmarkReadUSPS(b *testing.B) {
	b.Run("libsvm", func(b *testing.B) {
		c := readShared(b, "usps.train.bz2")
		b.SetBytes(int64(len(c)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := data.ReadLIBSVM(bytes.NewReader(c), "usps.train", data.LIBSVMOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("csv", func(b *testing.B) {
		c := readShared(b, "usps-esl.zip.train.gz")
		b.SetBytes(int64(len(c)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := data.ReadCSV(bytes.NewReader(c), "zip.train", data.CSVOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load-bz2", func(b *testing.B) {
		c := readShared(b, "usps.train.bz2")
		p := filepath.Join(sharedData, "usps.train.bz2")
		b.SetBytes(int64(len(c)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := data.Load(p, data.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
