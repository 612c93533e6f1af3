package synth

import (
	"context"
	"fmt"
	"io"

	"github.com/passgp-fast/passgp-fast/data"
)

// Source is a data.Source of n rows of a Task, generated as they are read
// (the rows of Dataset with the same seed), so that a data file larger
// than memory can be written (data.WriteBinary) without holding it.
type Source struct {
	t    Task
	n    int
	seed uint64
	g    *Generator
	row  []float64
}

// NewSource returns the Source of n rows of t from seed.
func NewSource(t Task, n int, seed uint64) (*Source, error) {
	if n < 0 {
		return nil, fmt.Errorf("synth: n = %d", n)
	}
	s := &Source{t: t, n: n, seed: seed}
	if err := s.Reset(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Source) Name() string   { return "synth" }
func (s *Source) Dim() int       { return s.g.r.d }
func (s *Source) Len() int       { return s.n }
func (s *Source) Labelled() bool { return true }
func (s *Source) Close() error   { return nil }

// Reset starts the pass again from the seed.
func (s *Source) Reset() error {
	g, err := NewGenerator(s.t, s.seed)
	if err != nil {
		return err
	}
	s.g, s.row = g, make([]float64, g.r.d)
	return nil
}

// Next fills b with the next rows.
func (s *Source) Next(ctx context.Context, b *data.Batch) error {
	b.Clear(s.g.Rows)
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.g.Rows == s.n {
		return io.EOF
	}
	for b.Len() < b.Cap() && s.g.Rows < s.n {
		_, o := s.g.Next(s.row)
		b.Append(s.row, s.t.Label(o))
	}
	return nil
}
