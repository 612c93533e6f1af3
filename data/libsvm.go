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
}

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
	// Rows are written densely as they are read, with a row stride that
	// grows (at least doubling, so O(log D) relayouts) when a larger index
	// appears; the result gets the final dimension.
	var (
		y    []float64
		rows rowBuf
		maxI int
		idx  []int // one line's entries, reused
		val  []float64
	)
	rows.stride = max(o.MinDim, 0)
	limit := int64(math.MaxInt32)
	if o.Dim > 0 {
		limit = int64(o.Dim)
		rows.stride = o.Dim
	}
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if k := bytes.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		f := fields{b: line}
		tok := f.next()
		if tok == nil {
			continue // blank or comment-only line
		}
		label, bad := parseFloat(tok)
		if bad != 0 {
			return nil, lr.errorf("%s", floatMsg(bad, "label", tok))
		}
		idx, val = idx[:0], val[:0]
		prev := int64(0)
		for tok = f.next(); tok != nil; tok = f.next() {
			c := bytes.IndexByte(tok, ':')
			if c < 0 {
				return nil, lr.errorf("malformed feature %s (want index:value)", quote(tok))
			}
			is, vs := tok[:c], tok[c+1:]
			if string(is) == "qid" {
				continue // svmlight query id: irrelevant to classification
			}
			i, ok := parseIndex(is)
			if !ok {
				var err error
				i, err = strconv.ParseInt(string(is), 10, 64)
				if err != nil {
					if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
						return nil, lr.errorf("feature index %s too large", quote(is))
					}
					return nil, lr.errorf("malformed feature index %s in %s", quote(is), quote(tok))
				}
			}
			switch {
			case i <= 0:
				return nil, lr.errorf("feature index %d (indices start at 1)", i)
			case i <= prev:
				return nil, lr.errorf("feature index %d not greater than previous %d", i, prev)
			case i > limit && o.Dim > 0:
				return nil, lr.errorf("feature index %d beyond dimension %d", i, o.Dim)
			case i > limit:
				return nil, lr.errorf("feature index %d too large", i)
			}
			v, bad := parseFloat(vs)
			if bad != 0 {
				return nil, lr.errorf("%s", floatMsg(bad, "value of feature "+strconv.FormatInt(i, 10), vs))
			}
			prev = i
			idx = append(idx, int(i))
			val = append(val, v)
		}
		n := len(y) + 1
		if int(prev) > rows.stride {
			maxI = int(prev)
			ns := max(maxI, 2*rows.stride)
			if !checkSize(int64(n), int64(ns)) {
				ns = maxI
			}
			if !checkSize(int64(n), int64(ns)) {
				return nil, lr.errorf("%d examples x %d features is too large to hold densely", n, maxI)
			}
			rows.setStride(ns)
		} else if !checkSize(int64(n), int64(rows.stride)) {
			// The doubled stride is too wide, the width in use may not be.
			need := max(maxI, o.MinDim, o.Dim)
			if !checkSize(int64(n), int64(need)) {
				return nil, lr.errorf("%d examples x %d features is too large to hold densely", n, need)
			}
			rows.setStride(need)
		}
		maxI = max(maxI, int(prev))
		row := rows.add()
		for k, i := range idx {
			row[i-1] = val[k]
		}
		y = append(y, label)
	}
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
	return &Dataset{N: n, D: d, X: rows.dense(d), Y: y, Source: name}, nil
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
