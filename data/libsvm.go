package data

import (
	"bytes"
	"io"
	"math"
	"strconv"
)

// LIBSVMOptions controls ReadLIBSVM. The zero value infers the dimension
// from the largest feature index in the file.
type LIBSVMOptions struct {
	// Dim, if positive, fixes the number of columns, for example to a
	// trained model's input dimension: a feature index greater than Dim is
	// an error.
	Dim int
	// MinDim, if positive and Dim is zero, is a lower bound on the number
	// of columns, so that a test file whose last features are all zero
	// (and therefore absent) gets the training file's width.
	MinDim int
	// MaxBytes bounds the dense N×D matrix of float64 that the file
	// becomes (0: DefaultMaxBytes). See also DenseFactor.
	MaxBytes int64
}

// DenseFactor bounds how much larger than the file's content the dense
// matrix of a LIBSVM file may be: N·D may exceed DenseFactor times the
// number of values the file holds (index:value entries plus labels) only
// below 2²² elements (32 MiB). A file that is sparser than that is refused
// with an error rather than expanded, so that a few bytes with a huge
// feature index cannot claim gigabytes; such data are far too wide for a
// dense Gaussian process classifier anyway.
const DenseFactor = 1024

// minDenseCheck is the number of dense elements below which DenseFactor
// does not apply.
const minDenseCheck = 1 << 22

// ReadLIBSVM reads LIBSVM/svmlight sparse text from r, which may be
// gzip- or bzip2-compressed (detected by content). name is used in errors
// and as the Source of the result. See the package documentation for the
// format and the errors.
func ReadLIBSVM(r io.Reader, name string, o LIBSVMOptions) (*Dataset, error) {
	br, err := decompress(r, name)
	if err != nil {
		return nil, err
	}
	lr := &lineReader{br: br, name: name}
	// Rows are kept sparse (compressed rows: ptr, col, val) while the file
	// is read, so that memory follows what the file holds; the dense
	// matrix is made once at the end, after its size has been checked on
	// every line.
	var (
		y    []float64
		ptr  = []int{0}
		maxI int
	)
	maxElems := maxElements
	if o.MaxBytes > 0 {
		maxElems = o.MaxBytes / 8
	}
	p := &libsvmParser{lr: lr, dim: o.Dim}
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		label, last, ok, err := p.parse(line)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // blank or comment-only line
		}
		maxI = max(maxI, int(last))
		n, d := int64(len(y)+1), int64(max(maxI, o.MinDim, o.Dim))
		if !checkSize(n, d, maxElems) {
			return nil, lr.errorf("%d examples x %d features is too large to hold densely (more than %d MiB; LIBSVMOptions.MaxBytes)", n, d, maxElems*8>>20)
		}
		if err := checkDensity(lr, n, d, int64(len(p.val))); err != nil {
			return nil, err
		}
		ptr = append(ptr, len(p.col))
		y = append(y, label)
	}
	col, val := p.col, p.val
	n := len(y)
	if n == 0 {
		if lr.bytes == 0 {
			return nil, errorf(name, 0, "empty file")
		}
		return nil, errorf(name, 0, "no examples (%d lines, all blank or comments)", lr.line)
	}
	d := max(maxI, o.MinDim)
	if o.Dim > 0 {
		d = o.Dim
	}
	if d == 0 {
		return nil, errorf(name, 0, "no features: every example is empty (give a dimension)")
	}
	x := make([]float64, n*d)
	for r := range n {
		row := x[r*d : (r+1)*d]
		for k := ptr[r]; k < ptr[r+1]; k++ {
			if c := int(col[k]); c < d {
				row[c] = val[k]
			}
		}
	}
	return &Dataset{N: n, D: d, X: x, Y: y, Source: name}, nil
}

// checkDensity refuses n examples of d features held in values
// index:value entries when the dense matrix would exceed DenseFactor times
// what the file holds.
func checkDensity(lr *lineReader, n, d, values int64) error {
	if held := values + n; n*d > minDenseCheck && n*d/held > DenseFactor {
		return lr.errorf("%d examples x %d features would be %d times larger as a dense matrix than the %d values in the file (limit %d): data this sparse cannot be held densely", n, d, n*d/held, held, DenseFactor)
	}
	return nil
}

// libsvmParser parses LIBSVM lines, appending the features of each to col
// (0-based) and val; a caller that wants one line at a time truncates them
// first.
type libsvmParser struct {
	lr  *lineReader
	dim int // LIBSVMOptions.Dim: indices beyond it are errors when positive
	col []int32
	val []float64
}

// parse parses line. ok is false for a blank or comment-only line; last is
// the line's largest feature index (0 for none).
func (p *libsvmParser) parse(line []byte) (label float64, last int64, ok bool, err error) {
	lr := p.lr
	limit := int64(math.MaxInt32)
	if p.dim > 0 {
		limit = int64(p.dim)
	}
	if k := bytes.IndexByte(line, '#'); k >= 0 {
		line = line[:k]
	}
	f := fields{b: line}
	tok := f.next()
	if tok == nil {
		return 0, 0, false, nil
	}
	label, bad := parseFloat(tok)
	if bad != 0 {
		return 0, 0, false, lr.errorf("%s", floatMsg(bad, "label", tok))
	}
	for tok = f.next(); tok != nil; tok = f.next() {
		c := bytes.IndexByte(tok, ':')
		if c < 0 {
			return 0, 0, false, lr.errorf("malformed feature %s (want index:value)", quote(tok))
		}
		is, vs := tok[:c], tok[c+1:]
		if string(is) == "qid" {
			continue // svmlight query id: irrelevant to classification
		}
		i, err := featureIndex(lr, is, tok, last, limit, p.dim)
		if err != nil {
			return 0, 0, false, err
		}
		v, bad := parseFloat(vs)
		if bad != 0 {
			return 0, 0, false, lr.errorf("%s", floatMsg(bad, "value of feature "+strconv.FormatInt(i, 10), vs))
		}
		last = i
		p.col = append(p.col, int32(i-1))
		p.val = append(p.val, v)
	}
	return label, last, true, nil
}

// featureIndex parses and checks the index is of token tok, which must
// exceed prev and be at most limit (dim, when positive).
func featureIndex(lr *lineReader, is, tok []byte, prev, limit int64, dim int) (int64, error) {
	i, ok := parseIndex(is)
	if !ok {
		var err error
		i, err = strconv.ParseInt(string(is), 10, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return 0, lr.errorf("feature index %s too large", quote(is))
			}
			return 0, lr.errorf("malformed feature index %s in %s", quote(is), quote(tok))
		}
	}
	switch {
	case i <= 0:
		return 0, lr.errorf("feature index %d (indices start at 1)", i)
	case i <= prev:
		return 0, lr.errorf("feature index %d not greater than previous %d", i, prev)
	case i > limit && dim > 0:
		return 0, lr.errorf("feature index %d beyond dimension %d", i, dim)
	case i > limit:
		return 0, lr.errorf("feature index %d too large", i)
	}
	return i, nil
}

// parseIndex parses a plain decimal index of up to 9 digits; anything
// else goes to strconv.ParseInt for the error or the unusual form.
func parseIndex(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// fields splits a line on runs of blanks (space, tab, \r, \v, \f).
type fields struct {
	b []byte
	p int
}

// next returns the next field, or nil when none is left.
func (f *fields) next() []byte {
	for f.p < len(f.b) && isBlank(f.b[f.p]) {
		f.p++
	}
	if f.p == len(f.b) {
		return nil
	}
	s := f.p
	for f.p < len(f.b) && !isBlank(f.b[f.p]) {
		f.p++
	}
	return f.b[s:f.p]
}
