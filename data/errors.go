package data

import (
	"fmt"
	"strconv"
)

// ParseError reports bad input: the file (or the name the caller gave a
// reader), the 1-based line of a text file or 0 when no line applies (IDX
// files, whole-file problems; the message then names the record), and the
// problem. Err holds an underlying error, such as a decompression or I/O
// failure or one of the binary format's sentinel errors (ErrCorrupt, ...),
// when there is one; Msg may then be empty.
//
// Its Error method gives one line, for example
//
//	usps.train.bz2:17: feature index 3 not greater than previous 5
type ParseError struct {
	File string
	Line int
	Msg  string
	Err  error
}

func (e *ParseError) Error() string {
	s := e.File
	if s == "" {
		s = "<input>"
	}
	if e.Line > 0 {
		s += ":" + strconv.Itoa(e.Line)
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error, if any.
func (e *ParseError) Unwrap() error { return e.Err }

func errorf(file string, line int, format string, args ...any) *ParseError {
	return &ParseError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}
