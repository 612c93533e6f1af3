package data

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
)

// Format is a data file format.
type Format string

const (
	Auto   Format = ""       // detect from content and name
	LIBSVM Format = "libsvm" // LIBSVM/svmlight sparse text
	CSV    Format = "csv"    // delimited text
	IDX    Format = "idx"    // MNIST IDX image (and label) files
	Binary Format = "binary" // passgp-fast binary data file (WriteBinary)
)

// ParseFormat returns the Format named s ("", "auto", "libsvm", "svmlight",
// "csv", "idx", "binary").
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return Auto, nil
	case "libsvm", "svmlight", "svm":
		return LIBSVM, nil
	case "csv", "tsv", "txt":
		return CSV, nil
	case "idx", "mnist":
		return IDX, nil
	case "binary", "bin", "pgd":
		return Binary, nil
	}
	return Auto, fmt.Errorf("unknown data format %q (want libsvm, csv, idx or binary)", s)
}

// Options controls Load. The zero value detects everything.
type Options struct {
	// Format forces a format; Auto detects it: binary data files and IDX
	// by their magic numbers, then .csv/.tsv/.libsvm/.svm names, then the content (index:value
	// tokens mean LIBSVM, anything else delimited text).
	Format Format
	// Labels is the IDX label file for an IDX image file. Empty means the
	// MNIST sibling name (…-images-idx3-… → …-labels-idx1-…) if that
	// file exists, and no labels otherwise.
	Labels string
	// Dim, if positive, is the required number of features (a LIBSVM
	// index beyond it, or another width of a CSV or IDX file, is an
	// error).
	Dim int
	// MinDim is LIBSVMOptions.MinDim.
	MinDim int
	// CSV holds the options for delimited text; its Dim and MaxBytes are
	// ignored in favour of Dim and MaxBytes here.
	CSV CSVOptions
	// MaxBytes bounds the dense N×D matrix of float64 that a LIBSVM or
	// CSV file becomes (0: DefaultMaxBytes). IDX data grow as they are
	// read, so they never take more than the file backs.
	MaxBytes int64
}

// Load reads the data file at path in any supported format, text and IDX
// plain or gzip- or bzip2-compressed (detected by content), binary data
// files (WriteBinary) uncompressed. Errors about the content
// are *ParseError values naming path; errors opening files are those of
// package os.
func Load(path string, o Options) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	format, br, err := detect(f, path, o.Format)
	if err != nil {
		return nil, err
	}
	if format == Binary {
		return loadBinary(path, o.Dim)
	}
	var ds *Dataset
	switch format {
	case IDX:
		ds, err = loadIDX(br, path, o.Labels)
	case CSV:
		co := o.CSV
		co.Dim, co.MaxBytes = o.Dim, o.MaxBytes
		ds, err = ReadCSV(br, path, co)
	case LIBSVM:
		ds, err = ReadLIBSVM(br, path, LIBSVMOptions{Dim: o.Dim, MinDim: o.MinDim, MaxBytes: o.MaxBytes})
	default:
		return nil, fmt.Errorf("data: unknown format %q", format)
	}
	if err != nil {
		return nil, err
	}
	if o.Dim > 0 && ds.D != o.Dim {
		return nil, errorf(path, 0, "%d features, want %d", ds.D, o.Dim)
	}
	return ds, nil
}

// detect returns the format of the file f opened at path (format, unless
// that is Auto) and, for formats other than Binary, a reader of its
// decompressed content.
func detect(f *os.File, path string, format Format) (Format, *bufio.Reader, error) {
	var magic [len(BinaryMagic)]byte
	if _, err := f.ReadAt(magic[:], 0); (err == nil && magic == BinaryMagic && format == Auto) || format == Binary {
		return Binary, nil, nil
	}
	br, err := decompress(f, path)
	if err != nil {
		return format, nil, err
	}
	head, _ := br.Peek(4)
	if len(head) == 4 && head[0] == 0 && head[1] == 0 && (format == Auto || format == IDX) {
		// No text file starts with two NUL bytes: this is IDX (ReadIDX
		// reports an unsupported data type).
		if head[2] == idxUbyte && head[3] == 1 {
			return IDX, nil, errorf(path, 0, "an IDX label file: give the images file as data and this one as the labels")
		}
		format = IDX
	}
	if format == Auto {
		format = sniff(path, br)
	}
	return format, br, nil
}

func loadIDX(images *bufio.Reader, path, labels string) (*Dataset, error) {
	labels = idxLabelsPath(path, labels)
	if labels == "" {
		return ReadIDX(images, nil, path, "")
	}
	lf, err := os.Open(labels)
	if err != nil {
		return nil, err
	}
	defer lf.Close()
	return ReadIDX(images, lf, path, labels)
}

// sniff picks LIBSVM or CSV for a text file from its name, then from the
// lines in the first buffer of content.
func sniff(path string, br *bufio.Reader) Format {
	switch baseExt(path) {
	case ".csv", ".tsv":
		return CSV
	case ".libsvm", ".svm", ".svmlight":
		return LIBSVM
	}
	head, _ := br.Peek(bufSize)
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 && len(head) == bufSize {
		head = head[:i] // complete lines only
	}
	for line := range bytes.Lines(head) {
		if k := bytes.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		f := fields{b: line}
		f.next() // the label
		for t := f.next(); t != nil; t = f.next() {
			if bytes.IndexByte(t, ':') > 0 {
				return LIBSVM
			}
			return CSV
		}
		if bytes.ContainsAny(line, ",;") {
			return CSV
		}
	}
	return LIBSVM
}

// loadBinary reads a binary data file for Load (its dim check included).
func loadBinary(path string, dim int) (*Dataset, error) {
	ds, err := ReadBinary(context.Background(), path)
	if err != nil {
		return nil, err
	}
	if dim > 0 && ds.D != dim {
		return nil, errorf(path, 0, "%d features, want %d", ds.D, dim)
	}
	return ds, nil
}
