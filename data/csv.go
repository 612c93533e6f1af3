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
	p := newCSVParser(&lineReader{br: br, name: name}, o)
	ds := &Dataset{Source: name}
	var rows rowBuf
	for {
		rec, err := p.next()
		if err != nil {
			return nil, err
		}
		if rec == nil {
			break
		}
		if ds.N == 0 {
			ds.D, rows.stride = p.d, p.d
			if p.label >= 0 {
				ds.Y = []float64{}
			}
		}
		if !checkSize(int64(ds.N)+1, int64(ds.D), maxElems) {
			return nil, p.lr.errorf("%d examples x %d features is too large to hold densely (more than %d MiB; CSVOptions.MaxBytes)", ds.N+1, ds.D, maxElems*8>>20)
		}
		y, err := p.values(rec, rows.add())
		if err != nil {
			return nil, err
		}
		if ds.Y != nil {
			ds.Y = append(ds.Y, y)
		}
		ds.N++
	}
	if ds.N == 0 {
		return nil, p.noExamples()
	}
	ds.X = rows.dense(ds.D)
	return ds, nil
}

// csvParser splits the records of delimited text and parses their
// values: the first record fixes the delimiter (when detected), the number
// of columns, the label column and whether it is a header.
type csvParser struct {
	lr       *lineReader
	o        CSVOptions
	sp       splitter
	rec      [][]byte
	ncol     int // columns per record, from the first record; -1 before
	firstRec int // line of the first record
	label    int // label column, -1 for none
	d        int // features per record
}

func newCSVParser(lr *lineReader, o CSVOptions) *csvParser {
	return &csvParser{lr: lr, o: o, sp: splitter{delim: byte(o.Delimiter)}, ncol: -1, label: -1}
}

// next returns the fields of the next data record, nil at the end of the
// input. The slices are valid until the next call.
func (p *csvParser) next() ([][]byte, error) {
	for {
		line, ok, err := p.lr.next()
		if err != nil || !ok {
			return nil, err
		}
		t := trimBlank(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if p.o.Delimiter == 0 && p.ncol < 0 {
			p.sp.delim = detectDelim(t)
		}
		if p.rec, err = p.sp.split(p.rec[:0], line); err != nil {
			return nil, p.lr.errorf("%v", err)
		}
		if p.ncol < 0 {
			isHeader, err := p.layout(p.rec)
			if err != nil {
				return nil, err
			}
			if isHeader {
				continue
			}
		}
		if len(p.rec) != p.ncol {
			return nil, p.lr.errorf("%d fields, want %d as on line %d", len(p.rec), p.ncol, p.firstRec)
		}
		return p.rec, nil
	}
}

// layout takes the columns from the first record rec and reports whether
// it is a header.
func (p *csvParser) layout(rec [][]byte) (isHeader bool, err error) {
	p.ncol, p.firstRec = len(rec), p.lr.line
	header := p.o.Header
	if p.o.LabelName != "" {
		header = HeaderYes
	}
	isHeader = header == HeaderYes || (header == HeaderAuto && !allNumeric(rec))
	if p.label, err = labelColumn(rec, isHeader, p.o); err != nil {
		return false, p.lr.errorf("%v", err)
	}
	p.d = p.ncol
	if p.label >= 0 {
		p.d--
	}
	if p.d == 0 {
		return false, p.lr.errorf("no feature columns (%d column(s))", p.ncol)
	}
	if p.o.Dim > 0 && p.d != p.o.Dim {
		return false, p.lr.errorf("%d features, want %d", p.d, p.o.Dim)
	}
	return isHeader, nil
}

// values parses the fields of rec into row (p.d values) and returns the
// label (0 without a label column).
func (p *csvParser) values(rec [][]byte, row []float64) (label float64, err error) {
	k := 0
	for c, f := range rec {
		v, bad := parseFloat(f)
		if bad != 0 {
			what := "value in column " + strconv.Itoa(c+1)
			if c == p.label {
				what = "label in column " + strconv.Itoa(c+1)
			}
			return 0, p.lr.errorf("%s", floatMsg(bad, what, f))
		}
		if c == p.label {
			label = v
		} else {
			row[k] = v
			k++
		}
	}
	return label, nil
}

// noExamples is the error for input without data records.
func (p *csvParser) noExamples() error {
	switch {
	case p.lr.bytes == 0:
		return errorf(p.lr.name, 0, "empty file")
	case p.ncol >= 0:
		return errorf(p.lr.name, 0, "no examples (only a header)")
	}
	return errorf(p.lr.name, 0, "no examples (%d lines, all blank or comments)", p.lr.line)
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
