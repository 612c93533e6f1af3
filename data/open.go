package data

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
)

const bufSize = 64 << 10

// Compression is a compression format recognised by its magic bytes.
type Compression int

const (
	None Compression = iota
	Gzip
	Bzip2
)

func (c Compression) String() string {
	switch c {
	case Gzip:
		return "gzip"
	case Bzip2:
		return "bzip2"
	}
	return "none"
}

// Detect reports the compression of data from its first bytes: gzip
// (1f 8b), bzip2 ("BZh" and a block size digit) or None. It returns an
// error for formats recognised but not supported (xz, zstd).
func Detect(head []byte) (Compression, error) {
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		return Gzip, nil
	case len(head) >= 4 && head[0] == 'B' && head[1] == 'Z' && head[2] == 'h' && head[3] >= '1' && head[3] <= '9':
		return Bzip2, nil
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return None, errors.New("xz compression is not supported (decompress the file first, or use gzip or bzip2)")
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return None, errors.New("zstd compression is not supported (decompress the file first, or use gzip or bzip2)")
	}
	return None, nil
}

// decompress returns a buffered reader of the decompressed content of r,
// whatever its compression (detected by content).
func decompress(r io.Reader, name string) (*bufio.Reader, error) {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < bufSize {
		br = bufio.NewReaderSize(r, bufSize)
	}
	head, err := br.Peek(6)
	if err != nil && err != io.EOF {
		if len(head) == 0 {
			return nil, &ParseError{File: name, Msg: "reading", Err: err}
		}
	}
	c, err := Detect(head)
	if err != nil {
		return nil, &ParseError{File: name, Msg: err.Error()}
	}
	switch c {
	case Gzip:
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, &ParseError{File: name, Msg: "gzip header", Err: err}
		}
		return bufio.NewReaderSize(z, bufSize), nil
	case Bzip2:
		return bufio.NewReaderSize(bzip2.NewReader(br), bufSize), nil
	}
	return br, nil
}

// Decompress returns a reader of the content of r, decompressed when its
// first bytes mark it as gzip or bzip2 and unchanged otherwise. name is
// used in errors only.
func Decompress(r io.Reader, name string) (io.Reader, error) {
	return decompress(r, name)
}

type readCloser struct {
	io.Reader
	f *os.File
}

func (r readCloser) Close() error { return r.f.Close() }

// Open opens the file at path and returns a reader of its content,
// decompressed when the file is gzip or bzip2 (recognised by its magic
// bytes, whatever its name).
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := decompress(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	return readCloser{r, f}, nil
}

// baseExt returns the lower-case extension of path after removing a
// compression suffix (.gz, .bz2, ...), e.g. ".csv" for "a.CSV.gz".
func baseExt(path string) string {
	p := strings.ToLower(filepath.Base(path))
	for _, s := range []string{".gz", ".gzip", ".bz2", ".bzip2"} {
		if strings.HasSuffix(p, s) {
			p = strings.TrimSuffix(p, s)
			break
		}
	}
	return filepath.Ext(p)
}
