package synth

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
)

// Shape is a binary task whose classes are separated by a curve in the
// first two of its D features, the others being pure noise: x ~ N(0, I_D),
// the class is positive where f(x_1, x_2) > 0 for
//
//	"xor":      f = x_1·x_2
//	"circle":   f = x_1² + x_2² − 2 log 2   (half the points inside)
//	"parabola": f = x_1 + x_2² − 1
//
// and each label is flipped with probability Flip, independent of x. The
// boundary is deterministic, so the Bayes error is Flip against the
// observed labels and 0 against the true classes. A kernel classifier
// must find a length scale short enough for the curve in two directions
// and long enough to ignore the D − 2 others (docs/method.md).
type Shape struct {
	Kind string
	D    int     // number of features, at least 2
	Flip float64 // label-flip rate in [0, 1/2)
}

// Validate reports whether the shape is well defined.
func (s Shape) Validate() error {
	switch {
	case s.f() == nil:
		return fmt.Errorf("synth: shape %q, want xor, circle or parabola", s.Kind)
	case s.D < 2:
		return fmt.Errorf("synth: shape with D = %d features, want at least 2", s.D)
	case !(s.Flip >= 0 && s.Flip < 0.5):
		return fmt.Errorf("synth: Flip = %v, want [0, 0.5)", s.Flip)
	}
	return nil
}

// f returns the shape's boundary function, nil for an unknown Kind.
func (s Shape) f() func(a, b float64) float64 {
	switch s.Kind {
	case "xor":
		return func(a, b float64) float64 { return a * b }
	case "circle":
		return func(a, b float64) float64 { return a*a + b*b - 2*math.Ln2 }
	case "parabola":
		return func(a, b float64) float64 { return a + b*b - 1 }
	}
	return nil
}

// ShapeGenerator streams the rows of a Shape from a seed, as Generator
// does for a Task.
type ShapeGenerator struct {
	s    Shape
	f    func(a, b float64) float64
	rng  *rand.Rand
	Rows int // rows generated so far
}

// NewShapeGenerator returns a generator of s's rows seeded by seed.
func NewShapeGenerator(s Shape, seed uint64) (*ShapeGenerator, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &ShapeGenerator{s: s, f: s.f(), rng: rand.New(rand.NewPCG(seed, 0x5ba9e5))}, nil
}

// Next fills x (length D) with the next row's features and returns its
// true class (1 positive, 0 negative) and its observed class.
func (g *ShapeGenerator) Next(x []float64) (class, observed int) {
	if len(x) != g.s.D {
		panic(fmt.Sprintf("synth: row buffer has %d entries, shape has %d features", len(x), g.s.D))
	}
	for j := range x {
		x[j] = g.rng.NormFloat64()
	}
	if g.f(x[0], x[1]) > 0 {
		class = 1
	}
	observed = class
	if g.rng.Float64() < g.s.Flip {
		observed = 1 - class
	}
	g.Rows++
	return class, observed
}

// WriteShapeLIBSVM writes n rows of s from seed to w in LIBSVM format
// (labels -1 and +1, every feature written as WriteLIBSVM does).
func WriteShapeLIBSVM(w io.Writer, s Shape, n int, seed uint64) error {
	g, err := NewShapeGenerator(s, seed)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	x := make([]float64, s.D)
	var buf []byte
	for i := 0; i < n; i++ {
		_, o := g.Next(x)
		buf = appendRow(buf[:0], float64(2*o-1), x)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendRow appends a LIBSVM row of label y and features x to buf.
func appendRow(buf []byte, y float64, x []float64) []byte {
	buf = strconv.AppendFloat(buf, y, 'g', -1, 64)
	for j, v := range x {
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(j+1), 10)
		buf = append(buf, ':')
		buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
	}
	return append(buf, '\n')
}
