package passgpfast

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/passgp-fast/passgp-fast/data"
)

// PredictSource predicts the rows of src in one pass from its first
// example, batchRows rows at a time, and calls f with each batch (its
// rows, labels and Start, the index of its first example) and their
// predictions: row i of p is example b.Start+i. b is reused by the next
// batch; p is f's to keep. Its memory is the model's and
// O(batchRows·(D+K)), whatever the number of examples, so that data
// larger than memory (a binary data file, data.OpenSource) can be
// predicted.
//
// When batchRows is a multiple of PredictChunk the model is called on the
// blocks of rows that Predict on all the rows at once calls it on, and
// every prediction is Predict's bit for bit; other batch sizes agree
// within rounding (BLAS's summation order depends on the block's shape).
//
// It stops with ctx's error within a batch of ctx ending, with f's error
// when f returns one, and with an error naming src and the example for a
// row whose scaled values would overflow. It panics if batchRows < 1.
func (c *Classifier) PredictSource(ctx context.Context, src data.Source, batchRows int, f func(b *data.Batch, p *Predictions) error) error {
	if batchRows < 1 {
		panic(fmt.Sprintf("passgpfast: PredictSource: %d rows per batch", batchRows))
	}
	d := src.Dim()
	if d != c.D() {
		return fmt.Errorf("%s: %d features, but the classifier was trained on %d", src.Name(), d, c.D())
	}
	s := c.m.Scaling
	if s != nil {
		if err := s.Validate(d); err != nil {
			return &data.ParseError{File: src.Name(), Msg: err.Error()}
		}
	}
	if err := src.Reset(); err != nil {
		return err
	}
	b := data.NewBatch(batchRows, d)
	scratch := make([]float64, d)
	for n := 0; ; n += b.Len() {
		err := src.Next(ctx, b)
		if errors.Is(err, io.EOF) {
			if n == 0 {
				return fmt.Errorf("%s: no examples", src.Name())
			}
			return nil
		}
		if err != nil {
			return err
		}
		if s != nil {
			if err := checkScaled(s, b, src.Name(), scratch); err != nil {
				return err
			}
		}
		p, err := c.predictRows(ctx, b.Dense())
		if err != nil {
			return err
		}
		if err := f(b, p); err != nil {
			return err
		}
	}
}

// checkScaled returns the error data.Scaling.Check returns for the first
// row of b whose scaled values are not finite, numbered in the whole
// source; scratch holds one row.
func checkScaled(s *data.Scaling, b *data.Batch, name string, scratch []float64) error {
	for i := range b.Len() {
		copy(scratch, b.Row(i))
		if err := s.ScaleRow(scratch); err != nil {
			return &data.ParseError{File: name, Msg: fmt.Sprintf("example %d %v", b.Start+i+1, err)}
		}
	}
	return nil
}

// EvaluateSource is Evaluate on the labelled examples of src, read in one
// pass of batches of batchRows rows (PredictSource): its memory does not
// grow with the number of examples. Its figures are Evaluate's on the
// same rows, digit for digit, when batchRows is a multiple of
// PredictChunk (its sums are Evaluate's, added in row order), and within
// rounding otherwise. Errors name src.
func (c *Classifier) EvaluateSource(ctx context.Context, src data.Source, batchRows int) (*Metrics, error) {
	if !src.Labelled() {
		return nil, fmt.Errorf("%s: no labels", src.Name())
	}
	acc := newMetricSums(c.m)
	err := c.PredictSource(ctx, src, batchRows, func(b *data.Batch, p *Predictions) error {
		truth, err := truthIndexFrom(c.m, b.Y(), src.Name(), b.Start)
		if err != nil {
			return err
		}
		acc.add(p.Prob, p, truth)
		return nil
	})
	if err != nil {
		return nil, err
	}
	met := acc.metrics()
	return &met, nil
}
