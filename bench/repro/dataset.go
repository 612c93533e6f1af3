package main

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// Dataset is a dense labelled sample. W, H give the image geometry for
// image data (0 otherwise).
type Dataset struct {
	Name string
	X    *mat.Dense
	Y    []float64 // class labels as read (digits 0-9, or ±1)
	W, H int
}

// N is the number of examples.
func (d *Dataset) N() int { return len(d.Y) }

// D is the number of features.
func (d *Dataset) D() int { _, c := d.X.Dims(); return c }

// openMaybeCompressed opens path and transparently decompresses gzip or
// bzip2 content (detected by magic bytes).
func openMaybeCompressed(path string) (io.Reader, func() error, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	br := bufio.NewReaderSize(fh, 1<<20)
	magic, _ := br.Peek(3)
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		zr, err := gzip.NewReader(br)
		if err != nil {
			fh.Close()
			return nil, nil, fmt.Errorf("%s: %v", path, err)
		}
		return bufio.NewReaderSize(zr, 1<<20), fh.Close, nil
	case len(magic) >= 3 && string(magic) == "BZh":
		return bufio.NewReaderSize(bzip2.NewReader(br), 1<<20), fh.Close, nil
	}
	return br, fh.Close, nil
}

// readLIBSVM reads a LIBSVM text file into a dense matrix with d columns
// (d = 0: the largest index seen).
func readLIBSVM(path string, d int) (*Dataset, error) {
	r, closeFn, err := openMaybeCompressed(path)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	type entry struct {
		j int
		v float64
	}
	var (
		labels []float64
		rows   [][]entry
		maxJ   int
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		fields := bytes.Fields(sc.Bytes())
		if len(fields) == 0 {
			continue
		}
		y, err := strconv.ParseFloat(string(fields[0]), 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: bad label %q", path, line, fields[0])
		}
		var row []entry
		prev := 0
		for _, fld := range fields[1:] {
			i := bytes.IndexByte(fld, ':')
			if i < 0 {
				return nil, fmt.Errorf("%s:%d: token %q is not index:value", path, line, fld)
			}
			j, err := strconv.Atoi(string(fld[:i]))
			if err != nil || j <= prev {
				return nil, fmt.Errorf("%s:%d: bad or non-increasing index %q", path, line, fld[:i])
			}
			v, err := strconv.ParseFloat(string(fld[i+1:]), 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: bad value %q", path, line, fld[i+1:])
			}
			prev = j
			row = append(row, entry{j, v})
		}
		if prev > maxJ {
			maxJ = prev
		}
		labels = append(labels, y)
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(labels) == 0 {
		return nil, fmt.Errorf("%s: no examples", path)
	}
	if d == 0 {
		d = maxJ
	}
	if maxJ > d {
		return nil, fmt.Errorf("%s: feature index %d beyond %d", path, maxJ, d)
	}
	x := mat.NewDense(len(labels), d, nil)
	raw := x.RawMatrix()
	for i, row := range rows {
		for _, e := range row {
			raw.Data[i*raw.Stride+e.j-1] = e.v
		}
	}
	return &Dataset{Name: filepath.Base(path), X: x, Y: labels}, nil
}

// readIDX reads an MNIST image/label IDX pair; pixels are scaled to
// value/255.
func readIDX(imgPath, lblPath string) (*Dataset, error) {
	ri, c1, err := openMaybeCompressed(imgPath)
	if err != nil {
		return nil, err
	}
	defer c1()
	var hdr [4]uint32
	if err := binary.Read(ri, binary.BigEndian, &hdr); err != nil {
		return nil, fmt.Errorf("%s: header: %v", imgPath, err)
	}
	if hdr[0] != 0x803 {
		return nil, fmt.Errorf("%s: magic %#x, want 0x803", imgPath, hdr[0])
	}
	n, h, w := int(hdr[1]), int(hdr[2]), int(hdr[3])
	pix := make([]byte, n*h*w)
	if _, err := io.ReadFull(ri, pix); err != nil {
		return nil, fmt.Errorf("%s: truncated pixel data: %v", imgPath, err)
	}
	rl, c2, err := openMaybeCompressed(lblPath)
	if err != nil {
		return nil, err
	}
	defer c2()
	var lh [2]uint32
	if err := binary.Read(rl, binary.BigEndian, &lh); err != nil {
		return nil, fmt.Errorf("%s: header: %v", lblPath, err)
	}
	if lh[0] != 0x801 || int(lh[1]) != n {
		return nil, fmt.Errorf("%s: magic %#x count %d, want 0x801 and %d", lblPath, lh[0], lh[1], n)
	}
	lb := make([]byte, n)
	if _, err := io.ReadFull(rl, lb); err != nil {
		return nil, fmt.Errorf("%s: truncated labels: %v", lblPath, err)
	}
	data := make([]float64, len(pix))
	for i, p := range pix {
		data[i] = float64(p) / 255
	}
	y := make([]float64, n)
	for i, l := range lb {
		y[i] = float64(l)
	}
	return &Dataset{Name: filepath.Base(imgPath), X: mat.NewDense(n, h*w, data), Y: y, W: w, H: h}, nil
}

// Subsample returns a stratified-free uniform random subset of n rows
// (in original order), or d itself when n <= 0 or n >= d.N().
func (d *Dataset) Subsample(n int, seed uint64) *Dataset {
	if n <= 0 || n >= d.N() {
		return d
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	idx := rng.Perm(d.N())[:n]
	sort.Ints(idx)
	return d.Rows(idx)
}

// Rows returns the dataset restricted to the given rows (copied).
func (d *Dataset) Rows(idx []int) *Dataset {
	c := d.D()
	x := mat.NewDense(len(idx), c, nil)
	y := make([]float64, len(idx))
	for i, j := range idx {
		x.SetRow(i, d.X.RawRowView(j))
		y[i] = d.Y[j]
	}
	return &Dataset{Name: d.Name, X: x, Y: y, W: d.W, H: d.H}
}

// binaryLabels maps class c to +1 and every other label to -1.
func binaryLabels(y []float64, c float64) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		if v == c {
			out[i] = 1
		} else {
			out[i] = -1
		}
	}
	return out
}

// classes returns the sorted distinct labels.
func classes(y []float64) []float64 {
	seen := map[float64]bool{}
	var cs []float64
	for _, v := range y {
		if !seen[v] {
			seen[v] = true
			cs = append(cs, v)
		}
	}
	sort.Float64s(cs)
	return cs
}
