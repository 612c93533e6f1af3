package data

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// Header says whether the first record of a CSV file is a header.
type Header int

const (
	// HeaderAuto treats the first record as a header when one of its
	// fields is text (not empty and not a number).
	HeaderAuto Header = iota
	// HeaderYes always skips the first record as a header.
	HeaderYes
	// HeaderNo treats every record as data.
	HeaderNo
)

// CSVOptions controls ReadCSV. The zero value reads a file whose first
// column is the label, with an auto-detected header and delimiter.
type CSVOptions struct {
	// Delimiter separates fields. Zero detects it from the first record:
	// ',' if present, else '\t', else ';', else runs of blanks. ' ' means
	// runs of blanks (spaces and tabs), as in the ESL zip.train files.
	Delimiter rune
	// Label is the 0-based label column; a negative value counts from
	// the end (-1 is the last column).
	Label int
	// LabelName, if set, selects the label column by its header name
	// (and implies a header).
	LabelName string
	// NoLabel reads every column as a feature; the Dataset's Y is nil.
	NoLabel bool
	// Header says whether the first record is a header.
	Header Header
	// Dim, if positive, is the required number of features.
	Dim int
	// MaxBytes bounds the dense N×D matrix of float64 (0:
	// DefaultMaxBytes).
	MaxBytes int64
}

// ValidDelimiter reports whether r can be a CSVOptions.Delimiter: zero
// (detect) or an ASCII character other than the quote and line breaks.
func ValidDelimiter(r rune) bool {
	return r >= 0 && r <= 127 && r != '"' && r != '\n' && r != '\r'
}

// ReadCSV reads delimited text from r, which may be gzip- or
// bzip2-compressed (detected by content): one example per record, all
// fields numeric, the label in the column chosen by o. Blank lines and
// lines starting with '#' are skipped. name is used in errors and as the
// Source of the result.
func ReadCSV(r io.Reader, name string, o CSVOptions) (*Dataset, error) {
	if !ValidDelimiter(o.Delimiter) {
		return nil, errorf(name, 0, "invalid CSV delimiter %q (want an ASCII character other than '\"' and line breaks)", o.Delimiter)
	}
	maxElems := maxElements
	if o.MaxBytes > 0 {
		maxElems = o.MaxBytes / 8
	}
	br, err := decompress(r, name)
	if err != nil {
		return nil, err
	}
	lr := &lineReader{br: br, name: name}
	ds := &Dataset{Source: name}
	sp := splitter{delim: byte(o.Delimiter)}
	var (
		rec      [][]byte
		ncol     = -1 // columns per record, from the first record
		firstRec int  // line of the first record
		label    = -1 // label column
		header   = o.Header
		rows     rowBuf
	)
	if o.LabelName != "" {
		header = HeaderYes
	}
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		t := trimBlank(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if o.Delimiter == 0 && ncol < 0 {
			sp.delim = detectDelim(t)
		}
		rec, err = sp.split(rec[:0], line)
		if err != nil {
			return nil, lr.errorf("%v", err)
		}
		if ncol < 0 {
			ncol, firstRec = len(rec), lr.line
			isHeader := header == HeaderYes || (header == HeaderAuto && !allNumeric(rec))
			label, err = labelColumn(rec, isHeader, o)
			if err != nil {
				return nil, lr.errorf("%v", err)
			}
			ds.D = ncol
			if !o.NoLabel {
				ds.D--
				ds.Y = []float64{}
			}
			if ds.D == 0 {
				return nil, lr.errorf("no feature columns (%d column(s))", ncol)
			}
			rows.stride = ds.D
			if o.Dim > 0 && ds.D != o.Dim {
				return nil, lr.errorf("%d features, want %d", ds.D, o.Dim)
			}
			if isHeader {
				continue
			}
		}
		if len(rec) != ncol {
			return nil, lr.errorf("%d fields, want %d as on line %d", len(rec), ncol, firstRec)
		}
		if !checkSize(int64(ds.N)+1, int64(ds.D), maxElems) {
			return nil, lr.errorf("%d examples x %d features is too large to hold densely (more than %d MiB; CSVOptions.MaxBytes)", ds.N+1, ds.D, maxElems*8>>20)
		}
		row, k := rows.add(), 0
		for c, f := range rec {
			v, bad := parseFloat(f)
			if bad != 0 {
				what := "value in column " + strconv.Itoa(c+1)
				if c == label {
					what = "label in column " + strconv.Itoa(c+1)
				}
				return nil, lr.errorf("%s", floatMsg(bad, what, f))
			}
			if c == label {
				ds.Y = append(ds.Y, v)
			} else {
				row[k] = v
				k++
			}
		}
		ds.N++
	}
	if ds.N == 0 {
		switch {
		case lr.bytes == 0:
			return nil, errorf(name, 0, "empty file")
		case ncol >= 0:
			return nil, errorf(name, 0, "no examples (only a header)")
		}
		return nil, errorf(name, 0, "no examples (%d lines, all blank or comments)", lr.line)
	}
	ds.X = rows.dense(ds.D)
	return ds, nil
}

// labelColumn returns the label column of records like rec (-1 for none).
func labelColumn(rec [][]byte, isHeader bool, o CSVOptions) (int, error) {
	if o.NoLabel {
		return -1, nil
	}
	if o.LabelName != "" {
		for c, f := range rec {
			if string(f) == o.LabelName {
				return c, nil
			}
		}
		return 0, fmt.Errorf("no column named %q in the header", o.LabelName)
	}
	c := o.Label
	if c < 0 {
		c += len(rec)
	}
	if c < 0 || c >= len(rec) {
		return 0, fmt.Errorf("label column %d out of range: %d columns", o.Label, len(rec))
	}
	return c, nil
}

func detectDelim(line []byte) byte {
	for _, d := range []byte{',', '\t', ';'} {
		if bytes.IndexByte(line, d) >= 0 {
			return d
		}
	}
	return ' '
}

// allNumeric reports whether no field of rec is text: empty, overflowing
// or non-finite fields count as numeric so that they are reported as bad
// data rather than silently taken for a header.
func allNumeric(rec [][]byte) bool {
	for _, f := range rec {
		if _, bad := parseFloat(f); bad == malformed {
			return false
		}
	}
	return true
}

// splitter splits a record into fields. With delim ' ' fields are
// separated by runs of blanks; otherwise by delim, with blanks around a
// field trimmed and RFC 4180 double quotes ("a,b", "say ""x""") removed.
type splitter struct {
	delim byte
	buf   []byte // unquoted field contents
}

func (s *splitter) split(dst [][]byte, line []byte) ([][]byte, error) {
	if s.delim == ' ' {
		f := fields{b: line}
		for t := f.next(); t != nil; t = f.next() {
			dst = append(dst, t)
		}
		return dst, nil
	}
	s.buf = s.buf[:0]
	// Quoted fields are copied into buf; make room up front so that the
	// slices already handed out stay valid.
	if cap(s.buf) < len(line) {
		s.buf = make([]byte, 0, len(line))
	}
	for p := 0; ; {
		for p < len(line) && s.space(line[p]) {
			p++
		}
		var f []byte
		if p < len(line) && line[p] == '"' {
			start := len(s.buf)
			p++
			for {
				if p >= len(line) {
					return nil, fmt.Errorf("field %d: unterminated quoted field", len(dst)+1)
				}
				if line[p] == '"' {
					if p+1 < len(line) && line[p+1] == '"' {
						s.buf = append(s.buf, '"')
						p += 2
						continue
					}
					p++
					break
				}
				s.buf = append(s.buf, line[p])
				p++
			}
			f = s.buf[start:len(s.buf):len(s.buf)]
			for p < len(line) && s.space(line[p]) {
				p++
			}
			if p < len(line) && line[p] != s.delim {
				return nil, fmt.Errorf("field %d: text after closing quote", len(dst)+1)
			}
		} else {
			e := bytes.IndexByte(line[p:], s.delim)
			if e < 0 {
				e = len(line) - p
			}
			f = trimBlank(line[p : p+e])
			p += e
		}
		dst = append(dst, f)
		if p >= len(line) {
			return dst, nil
		}
		p++ // the delimiter
	}
}

// space reports whether c is a blank other than the delimiter.
func (s *splitter) space(c byte) bool { return c != s.delim && isBlank(c) }
