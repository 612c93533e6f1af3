package passgpfast

import (
	"context"
	"fmt"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/passgp"
	"github.com/passgp-fast/passgp-fast/score"
)

// FitBinary is FitDataset on a binary data file (data.OpenBinary; written
// by `passgp-fast convert`) that it does not read into memory: one pass
// reads the labels and the statistics of the input scaling, and training
// then reads rows by index, a batch, the active set or a chunk of the
// held-out pass at a time, scaling each as it is read. Its memory is
// O(M² + batch·D) and a few N-vectors (labels, the batches' order, the
// held-out latents) instead of the N×D inputs. The classifier is the one
// FitDataset trains on the same data, bit for bit. src must stay open
// until FitBinary returns. With WithRemoteScorer, the scoring of the
// batches and of the held-out points runs through the remote scorer
// (ScoreTask), with the same classifier.
func FitBinary(ctx context.Context, src *data.BinarySource, opts ...Option) (*Classifier, error) {
	s := newSettings(opts)
	if !src.Labelled() {
		return nil, fmt.Errorf("%s: no labels", src.Name())
	}
	st, y, err := data.ReadStats(ctx, src)
	if err != nil {
		return nil, err
	}
	w, h := src.ImageShape()
	ds := &data.Dataset{N: src.Len(), D: src.Dim(), Y: y, Source: src.Name(), ImageW: w, ImageH: h}
	cp, err := s.prepare(ds, func() *data.Stats { return st })
	if err != nil {
		return nil, err
	}
	var x passgp.Rows = score.ReaderRows(src)
	if cp.scaling != nil {
		x = &scaledRows{Rows: x, s: cp.scaling, name: src.Name()}
	}
	if s.remote != nil {
		x = &remoteRows{Rows: x, r: s.remote, scaling: cp.scaling}
	}
	return s.run(ctx, ds, cp, x)
}

// scaledRows scales the rows of Rows as they are read, with the arithmetic
// of data.Scaling.Apply, so that training sees the values FitDataset's
// scaled copy holds.
type scaledRows struct {
	passgp.Rows
	s    *data.Scaling
	name string
	err  score.FirstError
}

func (x *scaledRows) RowsTo(dst []float64, idx []int) {
	x.Rows.RowsTo(dst, idx)
	_, d := x.Dims()
	for k, i := range idx {
		if err := x.s.ScaleRow(dst[k*d : (k+1)*d]); err != nil {
			x.err.Set(&data.ParseError{File: x.name, Msg: fmt.Sprintf("example %d %v", i+1, err)})
		}
	}
}

// ChecksFinite reports whether reads fail on a value that is not finite:
// where the rows read do (a binary file), the scaled ones do too (a scaled
// value that overflows is an error).
func (x *scaledRows) ChecksFinite() bool {
	return score.ChecksFinite(x.Rows)
}

func (x *scaledRows) Err() error {
	if err := x.Rows.Err(); err != nil {
		return err
	}
	return x.err.Err()
}
