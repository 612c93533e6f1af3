package data

import (
	"context"
	"io"
)

// ReadBinary reads a whole binary data file into a Dataset, checking its
// payload checksum on the way (the one pass is a complete pass). The
// Dataset's X and Y are decoded in place, without a second copy; the
// matrix is bounded by DefaultMaxBytes, as text files are.
func ReadBinary(ctx context.Context, path string) (*Dataset, error) {
	s, err := OpenBinary(ctx, path, BinaryOptions{})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	n, d := s.Len(), s.Dim()
	if !checkSize(int64(n), int64(d), maxElements) {
		return nil, errorf(path, 0, "%d examples x %d features is too large to hold densely (more than %d MiB)", n, d, maxElements*8>>20)
	}
	ds := &Dataset{N: n, D: d, X: make([]float64, n*d), Source: path}
	ds.ImageW, ds.ImageH = s.ImageShape()
	y := make([]float64, min(n, s.chunk)) // scratch labels of an unlabelled file
	if s.Labelled() {
		y = make([]float64, n)
		ds.Y = y
	}
	// b views the next rows of ds; Next fills all of them.
	b := &Batch{d: d}
	for i := 0; ; {
		k := min(n-i, s.chunk)
		b.x = ds.X[i*d : (i+k)*d]
		if ds.Y != nil {
			b.y = y[i : i+k]
		} else {
			b.y = y[:k]
		}
		if k == 0 {
			b.x, b.y = ds.X[:d], y[:1] // the end of the pass: nothing is written
		}
		switch err := s.Next(ctx, b); {
		case err == io.EOF:
			return ds, nil
		case err != nil:
			return nil, err
		}
		i += b.n
	}
}
