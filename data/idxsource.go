package data

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// OpenIDX returns a FileSource over the IDX image file at images and its
// label file labels; an empty labels means the MNIST sibling
// (…-images-idx3-… → …-labels-idx1-…) if that file exists, and no labels
// otherwise, as in Load. The headers are read and checked here (Len is
// the image count); the pixels, value/255 as in ReadIDX, and labels are
// read in each pass, and a truncated file is reported by the pass that
// reaches its end. An image of more than DefaultMaxBytes is refused.
func OpenIDX(images, labels string) (*FileSource, error) {
	labels = idxLabelsPath(images, labels)
	s := &FileSource{path: images, open: fileOpener(images), labelled: labels != ""}
	s.newRows = func(br *bufio.Reader) (fileRows, error) { return s.newIDXRows(br, labels) }
	// The first pass is opened now: that reads and checks the headers.
	if err := s.openPass(); err != nil {
		return nil, err
	}
	s.chunk = chunkRows(8 * (s.d + 1))
	return s, nil
}

// idxLabelsPath returns the label file for the IDX images at path: labels
// if set, else the MNIST sibling if it exists, else "".
func idxLabelsPath(path, labels string) string {
	if labels != "" {
		return labels
	}
	base := filepath.Base(path)
	if strings.Contains(base, "images-idx3") {
		guess := filepath.Join(filepath.Dir(path), strings.Replace(base, "images-idx3", "labels-idx1", 1))
		if _, err := os.Stat(guess); err == nil {
			return guess
		}
	}
	return ""
}

// newIDXRows starts a pass: it reads the image header from br and opens
// the label file. The first pass sets the source's shape; later passes
// must find the same.
func (s *FileSource) newIDXRows(br *bufio.Reader, labels string) (fileRows, error) {
	dims, err := idxHeader(br, s.path)
	if err != nil {
		return nil, err
	}
	n, d, err := idxShape(dims, s.path)
	if err != nil {
		return nil, err
	}
	if s.d == 0 {
		s.n, s.d = int(n), int(d)
		if len(dims) == 3 {
			s.imgH, s.imgW = int(dims[1]), int(dims[2])
		}
	} else if int64(s.n) != n || int64(s.d) != d {
		return nil, errorf(s.path, 0, "IDX header now claims %d images of %d values, not %d of %d: the file changed", n, d, s.n, s.d)
	}
	r := &idxRows{images: br, name: s.path, labelsName: labels, n: n, buf: make([]byte, d)}
	if labels == "" {
		return r, nil
	}
	if r.lf, err = os.Open(labels); err != nil {
		return nil, err
	}
	if r.labels, err = decompress(r.lf, labels); err == nil {
		err = idxLabelHeader(r.labels, labels, n, s.path)
	}
	if err != nil {
		r.lf.Close()
		return nil, err
	}
	return r, nil
}

// idxRows reads the images (and labels) of an IDX pair one at a time.
type idxRows struct {
	images, labels   *bufio.Reader
	lf               *os.File // the label file; nil without labels
	name, labelsName string
	n, i             int64 // images announced and read
	buf              []byte
}

func (r *idxRows) row(row []float64, label *float64) (bool, error) {
	if r.i == r.n {
		if err := idxEnd(r.images, r.name, "images"); err != nil {
			return false, err
		}
		if r.labels != nil {
			return false, idxEnd(r.labels, r.labelsName, "labels")
		}
		return false, nil
	}
	if got, err := io.ReadFull(r.images, r.buf); err != nil {
		if got == 0 {
			return false, truncated(r.name, err, "truncated: %d of %d images", r.i, r.n)
		}
		return false, truncated(r.name, err, "truncated: image %d of %d has %d of %d bytes", r.i+1, r.n, got, len(r.buf))
	}
	for j, b := range r.buf {
		row[j] = float64(b) / 255
	}
	if r.labels != nil {
		c, err := r.labels.ReadByte()
		if err != nil {
			return false, truncated(r.labelsName, err, "truncated: %d of %d labels", r.i, r.n)
		}
		*label = float64(c)
	}
	r.i++
	return true, nil
}

// noExamples is never reached: idxShape refuses an image count of 0.
func (r *idxRows) noExamples() error {
	return errorf(r.name, 0, "no examples (IDX image count 0)")
}

func (r *idxRows) close() error {
	if r.lf == nil {
		return nil
	}
	return r.lf.Close()
}
