package data

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"strconv"
)

// DefaultMaxBytes is the default bound on the dense N×D matrix of float64
// that a data file becomes (8 GiB): a malformed file (a huge feature index,
// a forged IDX header) gets an error instead of an attempt to allocate
// more. Options.MaxBytes changes it.
const DefaultMaxBytes = 8 << 30

// maxElements is DefaultMaxBytes in float64 elements; a variable so that
// tests of the limit's messages can use small files.
var maxElements int64 = DefaultMaxBytes / 8

// lineReader yields the lines of a decompressed text stream one at a time
// without holding more than one line (and the bufio buffer) in memory.
type lineReader struct {
	br    *bufio.Reader
	name  string
	line  int   // number of the line last returned
	bytes int64 // bytes read so far
	long  []byte
}

// next returns the next line without its "\n" or "\r\n" terminator (and
// without a UTF-8 byte order mark on line 1). The slice is valid until the
// next call. ok is false at the end of the input.
func (l *lineReader) next() (line []byte, ok bool, err error) {
	b, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = l.br.ReadSlice('\n')
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	l.bytes += int64(len(b))
	if err != nil && err != io.EOF {
		return nil, false, &ParseError{File: l.name, Line: l.line + 1, Msg: "reading", Err: err}
	}
	if len(b) == 0 {
		return nil, false, nil
	}
	l.line++
	b = bytes.TrimSuffix(b, []byte{'\n'})
	b = bytes.TrimSuffix(b, []byte{'\r'})
	if l.line == 1 {
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	}
	return b, true, nil
}

func (l *lineReader) errorf(format string, args ...any) *ParseError {
	return errorf(l.name, l.line, format, args...)
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

func trimBlank(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isBlank(b[i]) {
		i++
	}
	for j > i && isBlank(b[j-1]) {
		j--
	}
	return b[i:j]
}

// quote formats a token for an error message, shortened so that the
// message stays one readable line.
func quote(b []byte) string {
	const max = 40
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}

// parseFloat parses a finite float64. On failure it returns a non-empty
// problem description, to be completed by floatMsg.
func parseFloat(b []byte) (float64, floatProblem) {
	if v, ok := fastFloat(b); ok {
		return v, 0
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, outOfRange
		}
		if len(b) == 0 {
			return 0, empty
		}
		return 0, malformed
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, notFinite
	}
	return v, 0
}

type floatProblem int

const (
	_ floatProblem = iota
	empty
	malformed
	outOfRange
	notFinite
)

// floatMsg describes problem p of token b; what names the token ("label",
// "value of feature 3").
func floatMsg(p floatProblem, what string, b []byte) string {
	switch p {
	case empty:
		return "empty " + what
	case malformed:
		return "malformed " + what + " " + quote(b)
	case outOfRange:
		return what + " " + quote(b) + " out of range (not finite as float64)"
	}
	return what + " " + quote(b) + " is not finite"
}

// checkSize reports whether an n×d dense matrix has at most limit
// elements.
func checkSize(n, d, limit int64) bool {
	return n >= 0 && d >= 0 && (d == 0 || n <= limit/d)
}
