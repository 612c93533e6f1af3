package data

import (
	"bufio"
	"os"
)

// OpenCSV returns a FileSource over the delimited text file at path, with
// the columns chosen by o. It reads the file up to its first data record
// to find the width (so that an error in the layout, such as a missing
// label column, is reported here); Len is -1 until a pass has ended.
// o.MaxBytes does not apply.
func OpenCSV(path string, o CSVOptions) (*FileSource, error) {
	if !ValidDelimiter(o.Delimiter) {
		return nil, errorf(path, 0, "invalid CSV delimiter %q (want an ASCII character other than '\"' and line breaks)", o.Delimiter)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br, err := decompress(f, path)
	if err != nil {
		return nil, err
	}
	p := newCSVParser(&lineReader{br: br, name: path}, o)
	rec, err := p.next()
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, p.noExamples()
	}
	// Every pass must find the same layout: a file changed in between
	// gets the "features, want" error.
	o.Dim = p.d
	s := &FileSource{path: path, open: fileOpener(path), d: p.d, n: -1, labelled: p.label >= 0, chunk: chunkRows(8 * (p.d + 1))}
	s.newRows = func(br *bufio.Reader) (fileRows, error) {
		return &csvRows{newCSVParser(&lineReader{br: br, name: path}, o)}, nil
	}
	return s, nil
}

// csvRows parses the examples of delimited text one record at a time.
type csvRows struct{ p *csvParser }

func (r *csvRows) row(row []float64, label *float64) (bool, error) {
	rec, err := r.p.next()
	if rec == nil {
		return false, err
	}
	*label, err = r.p.values(rec, row)
	return err == nil, err
}

func (r *csvRows) noExamples() error { return r.p.noExamples() }
func (r *csvRows) close() error      { return nil }
