package data

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// Dataset is a labelled data set held densely: row i of the N×D input
// matrix is X[i*D : (i+1)*D] and its label is Y[i]. Y is nil when the
// source carries no labels (an IDX image file without a label file, a CSV
// file read with NoLabel). ImageW and ImageH are the image geometry when the
// source records it (IDX image files: D == ImageW*ImageH), and zero
// otherwise.
type Dataset struct {
	X      []float64
	N, D   int
	Y      []float64
	Source string
	ImageW int
	ImageH int
}

// Row returns row i of X; the slice shares X's storage.
func (d *Dataset) Row(i int) []float64 {
	if i < 0 || i >= d.N {
		panic(fmt.Sprintf("data: row %d out of range [0,%d)", i, d.N))
	}
	return d.X[i*d.D : (i+1)*d.D : (i+1)*d.D]
}

// Dense returns X as an N×D matrix sharing X's storage. It panics when N
// or D is zero, as mat.NewDense does.
func (d *Dataset) Dense() *mat.Dense {
	return mat.NewDense(d.N, d.D, d.X)
}

// Classes returns the distinct labels in increasing order (nil when Y is
// nil).
func (d *Dataset) Classes() []float64 {
	return Classes(d.Y)
}

// Classes returns the distinct values of y in increasing order.
func Classes(y []float64) []float64 {
	if y == nil {
		return nil
	}
	c := slices.Clone(y)
	slices.Sort(c)
	return slices.Clone(slices.Compact(c)) // not holding the sorted copy
}

// Subset returns a new Dataset holding copies of the rows idx (in that
// order, repeats allowed). It panics on an index out of range.
func (d *Dataset) Subset(idx []int) *Dataset {
	s := &Dataset{N: len(idx), D: d.D, X: make([]float64, len(idx)*d.D),
		Source: d.Source, ImageW: d.ImageW, ImageH: d.ImageH}
	if d.Y != nil {
		s.Y = make([]float64, len(idx))
	}
	for k, i := range idx {
		copy(s.X[k*d.D:(k+1)*d.D], d.Row(i))
		if d.Y != nil {
			s.Y[k] = d.Y[i]
		}
	}
	return s
}

// BinaryLabels maps labels to ±1. With positive nil, y must hold exactly two
// distinct values; the larger becomes +1 and the smaller -1. With positive
// set, that label becomes +1 and every other label -1 (one against the
// rest); it must occur in y and so must some other label. Fewer than two
// classes, or more than two without positive, is an error.
func BinaryLabels(y []float64, positive *float64) ([]float64, error) {
	c := Classes(y)
	switch {
	case len(c) == 0:
		return nil, fmt.Errorf("no labels")
	case len(c) == 1:
		return nil, fmt.Errorf("fewer than two classes: every label is %s", fmtLabel(c[0]))
	}
	pos := c[len(c)-1]
	if positive != nil {
		pos = *positive
		if _, ok := slices.BinarySearch(c, pos); !ok {
			return nil, fmt.Errorf("positive label %s does not occur (labels: %s)", fmtLabel(pos), fmtLabels(c))
		}
	} else if len(c) > 2 {
		return nil, fmt.Errorf("%d classes (%s); a binary task needs two or a chosen positive label", len(c), fmtLabels(c))
	}
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = -1
		if v == pos {
			out[i] = 1
		}
	}
	return out, nil
}

// BinaryLabels is the function BinaryLabels applied to d.Y, with errors
// naming d.Source.
func (d *Dataset) BinaryLabels(positive *float64) ([]float64, error) {
	if d.Y == nil {
		return nil, &ParseError{File: d.Source, Msg: "no labels"}
	}
	y, err := BinaryLabels(d.Y, positive)
	if err != nil {
		return nil, &ParseError{File: d.Source, Msg: err.Error()}
	}
	return y, nil
}

// Validate checks the invariants every reader guarantees: len(X) == N*D,
// Y nil or of length N, every value finite, and (with minClasses > 0) at
// least minClasses distinct labels. Callers that build a Dataset by hand
// can use it before training.
func (d *Dataset) Validate(minClasses int) error {
	if d.N < 0 || d.D < 0 || len(d.X) != d.N*d.D {
		return &ParseError{File: d.Source, Msg: fmt.Sprintf("len(X) = %d, want N*D = %d*%d", len(d.X), d.N, d.D)}
	}
	if d.Y != nil && len(d.Y) != d.N {
		return &ParseError{File: d.Source, Msg: fmt.Sprintf("len(Y) = %d, want N = %d", len(d.Y), d.N)}
	}
	for k, v := range d.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &ParseError{File: d.Source, Msg: fmt.Sprintf("example %d feature %d: value %v is not finite", k/d.D+1, k%d.D+1, v)}
		}
	}
	for i, v := range d.Y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &ParseError{File: d.Source, Msg: fmt.Sprintf("example %d: label %v is not finite", i+1, v)}
		}
	}
	if minClasses > 0 {
		if d.Y == nil {
			return &ParseError{File: d.Source, Msg: "no labels"}
		}
		if c := d.Classes(); len(c) < minClasses {
			return &ParseError{File: d.Source, Msg: fmt.Sprintf("fewer than %d classes: %d distinct label(s)", minClasses, len(c))}
		}
	}
	return nil
}

func fmtLabel(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func fmtLabels(c []float64) string {
	const max = 10
	s := ""
	for i, v := range c {
		if i == max {
			return s + fmt.Sprintf(", ... (%d more)", len(c)-max)
		}
		if i > 0 {
			s += ", "
		}
		s += fmtLabel(v)
	}
	return s
}
