package score

import (
	"bytes"
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
)

// Align is the row granularity of the shards and of the workers'
// scoring: passgpfast.PredictChunk, the blocks in which Predict scores (a
// multiple of package passgp's scoring chunk). A block that starts at a
// multiple of Align and is scored in pieces of Align rows goes through
// the blocks that Predict on the whole data uses, so its results are bit
// for bit those of Predict (serving view).
const Align = passgpfast.PredictChunk

// Scorer scores blocks of rows with one model: the workers' function.
// It holds the serving view of the model decoded once from its bytes,
// and is safe for concurrent use (each call runs on its goroutine).
type Scorer struct {
	clf *passgpfast.Classifier
}

// ModelOptions controls NewScorer.
type ModelOptions struct {
	// Raw drops the model's calibration: the probabilities are the
	// binary classifiers' q(y=+1|x) (paper eq. 4), normalised over the
	// classes for one-vs-rest models, as `passgp-fast predict --raw`.
	Raw bool
	// MaxBytes bounds the memory of the rebuilt posteriors
	// (model.LoadOptions); 0 means model.DefaultMaxBytes.
	MaxBytes int64
}

// NewScorer decodes a model file's bytes (as `passgp-fast train --model`
// writes them); name names the model in errors.
func NewScorer(modelBytes []byte, name string, o ModelOptions) (*Scorer, error) {
	clf, err := passgpfast.Load(bytes.NewReader(modelBytes), model.LoadOptions{MaxBytes: o.MaxBytes})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if o.Raw {
		clf.Model().Calibration = nil
	}
	return &Scorer{clf: clf.Serving()}, nil
}

// D is the number of features the model takes.
func (s *Scorer) D() int { return s.clf.D() }

// Outputs names the probability columns (passgpfast.Classifier.Outputs).
func (s *Scorer) Outputs() []string { return s.clf.Outputs() }

// K is the number of binary classifiers: the columns of the latent mean
// and variance.
func (s *Scorer) K() int { return len(s.clf.Model().Binaries) }

// Rows are the results of a block of n rows.
type Rows struct {
	// Prob (n×len(Outputs)) are the class probabilities.
	Prob *mat.Dense
	// Decision is the index into Outputs of each row's most probable
	// class.
	Decision []int
	// Mean and Var (n×K) are each binary classifier's predictive latent
	// mean and variance (paper eq. 4), when asked for; else nil.
	Mean, Var *mat.Dense
}

// newRows allocates the results of n rows: c probability columns and,
// with latent, k latent columns.
func newRows(n, c, k int, latent bool) *Rows {
	r := &Rows{Prob: mat.NewDense(n, c, nil), Decision: make([]int, n)}
	if latent {
		r.Mean, r.Var = mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
	}
	return r
}

// Score sets rows [at, at+n) of dst to the results of the n rows of x
// (as in the training data; the model applies its scaling). For results
// bit for bit Predict's on the whole data, x must start at a multiple of
// Align of it and hold at most Align rows (ScoreBlock does that). name
// names x in errors. It stops with ctx's error when ctx ends.
func (s *Scorer) Score(ctx context.Context, dst *Rows, at int, x *mat.Dense, name string) error {
	n, d := x.Dims()
	if d != s.D() {
		return fmt.Errorf("%s: %d features, but the model was trained on %d", name, d, s.D())
	}
	ds := &data.Dataset{N: n, D: d, X: rowMajor(x), Source: name}
	p, err := s.clf.PredictDataset(ctx, ds)
	if err != nil {
		return err
	}
	nc := len(s.Outputs())
	dst.Prob.Slice(at, at+n, 0, nc).(*mat.Dense).Copy(p.Prob)
	copy(dst.Decision[at:at+n], p.Decision)
	if dst.Mean != nil {
		k := s.K()
		s.clf.LatentMeanVarTo(dst.Mean.Slice(at, at+n, 0, k).(*mat.Dense), dst.Var.Slice(at, at+n, 0, k).(*mat.Dense), x)
	}
	return nil
}

// rowMajor returns x's n×d values row by row: its own memory when its
// rows are contiguous, else a copy.
func rowMajor(x *mat.Dense) []float64 {
	raw := x.RawMatrix()
	if raw.Stride == raw.Cols {
		return raw.Data[:raw.Rows*raw.Cols]
	}
	v := make([]float64, 0, raw.Rows*raw.Cols)
	for i := range raw.Rows {
		v = append(v, x.RawRowView(i)...)
	}
	return v
}
