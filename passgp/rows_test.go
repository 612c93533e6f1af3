package passgp

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/score"
	"github.com/passgp-fast/passgp-fast/synth"
)

// binaryRows writes x, y to a binary data file in t's temporary directory
// and returns its rows read from disk.
func binaryRows(t *testing.T, x *mat.Dense, y []float64) Rows {
	t.Helper()
	n, d := x.Dims()
	ds := &data.Dataset{N: n, D: d, X: slices.Clone(x.RawMatrix().Data), Y: slices.Clone(y), Source: "rows"}
	path := filepath.Join(t.TempDir(), "rows.pgd")
	ctx := context.Background()
	if err := data.WriteBinary(ctx, path, data.NewMemSource(ds), data.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	src, err := data.OpenBinary(ctx, path, data.BinaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return score.ReaderRows(src)
}

// sameResult fails t unless a and b hold the same classifier and held-out
// estimate, bit for bit.
func sameResult(t *testing.T, name string, a, b *Result) {
	t.Helper()
	ma, mb := a.Model, b.Model
	switch {
	case !slices.Equal(ma.Active, mb.Active):
		t.Errorf("%s: active sets differ: %v vs %v", name, truncInts(ma.Active), truncInts(mb.Active))
	case !slices.Equal(ma.Kernel.Params(), mb.Kernel.Params()):
		t.Errorf("%s: θ %v vs %v", name, ma.Kernel.Params(), mb.Kernel.Params())
	case !slices.Equal(ma.Post.Sites.Tau, mb.Post.Sites.Tau) || !slices.Equal(ma.Post.Sites.Nu, mb.Post.Sites.Nu):
		t.Errorf("%s: sites differ", name)
	case !mat.Equal(ma.X, mb.X):
		t.Errorf("%s: active inputs differ", name)
	case !slices.Equal(a.HeldOut, b.HeldOut) || !slices.Equal(a.HeldOutShare, b.HeldOutShare):
		t.Errorf("%s: held-out latents differ", name)
	case !reflect.DeepEqual(a.Calibration, b.Calibration):
		t.Errorf("%s: calibrations differ", name)
	case (ma.Sparse == nil) != (mb.Sparse == nil):
		t.Errorf("%s: one posterior is FITC, the other not", name)
	case ma.Sparse != nil && (!slices.Equal(ma.Sparse.Mean, mb.Sparse.Mean) || !slices.Equal(ma.Sparse.Var, mb.Sparse.Var)):
		t.Errorf("%s: FITC posteriors differ", name)
	}
}

// TestTrainRowsSameModel: training on rows read from a binary data file
// gives the model that training on the same rows in memory gives, bit for
// bit, for every method and for PASS-GP with its budget binding (the FITC
// trial and its θ search read the data too).
func TestTrainRowsSameModel(t *testing.T) {
	ds, err := synth.Dataset(synth.Task{D: 4, Relevant: 2, Flip: 0.1}, 500, 3)
	if err != nil {
		t.Fatal(err)
	}
	x, y := ds.Dense(), ds.Y
	for i, v := range y {
		y[i] = map[bool]float64{true: 1, false: -1}[v == ds.Classes()[1]]
	}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"passgp", Options{Sub: 4, Passes: 2}},
		{"passgp-budget", Options{Sub: 4, Passes: 2, MaxActive: 40, BoundFITC: 20}},
		{"fpassgp", Options{Method: FPASSGP, M: 60, Sub: 4, Passes: 2}},
		{"ivm", Options{Method: IVM, M: 60, Passes: 2}},
		{"random", Options{Method: Random, M: 60}},
		{"full", Options{Method: Full}},
	} {
		o := c.o
		o.Threads = 1
		mem, err := Train(ctx, x, y, &o)
		if err != nil {
			t.Fatalf("%s in memory: %v", c.name, err)
		}
		disk, err := TrainRows(ctx, binaryRows(t, x, y), y, &o)
		if err != nil {
			t.Fatalf("%s from disk: %v", c.name, err)
		}
		sameResult(t, c.name, mem, disk)
		if c.name == "passgp-budget" && mem.BoundFITC == nil {
			t.Errorf("%s: the budget did not bind, the FITC trial is untested", c.name)
		}
	}
}

// TestTrainMultiRowsSameModel: one-vs-rest training from disk equals
// training in memory, bit for bit.
func TestTrainMultiRowsSameModel(t *testing.T) {
	x, labels := blobs(300, 3, 5)
	o := Options{Sub: 3, Passes: 1, Threads: 1}
	ctx := context.Background()
	mem, err := TrainMulti(ctx, x, labels, &o)
	if err != nil {
		t.Fatal(err)
	}
	disk, err := TrainMultiRows(ctx, binaryRows(t, x, labels), labels, &o)
	if err != nil {
		t.Fatal(err)
	}
	for k := range mem.PerClass {
		sameResult(t, "class", mem.PerClass[k], disk.PerClass[k])
	}
	if !reflect.DeepEqual(mem.Calibration, disk.Calibration) {
		t.Error("multi-class calibrations differ")
	}
}

// failingRows fails every read after the first ok reads.
type failingRows struct {
	Rows
	ok    int64
	reads atomic.Int64
	err   atomic.Pointer[error]
}

var errDisk = errors.New("disk on fire")

func (f *failingRows) RowsTo(dst []float64, idx []int) {
	if f.reads.Add(1) > f.ok {
		f.err.CompareAndSwap(nil, &errDisk)
		clear(dst[:len(idx)])
		return
	}
	f.Rows.RowsTo(dst, idx)
}

func (f *failingRows) Err() error {
	if p := f.err.Load(); p != nil {
		return *p
	}
	return nil
}

// TestTrainRowsReadError: a read error at any stage (the input check, the
// θ bounds, a batch, the active set, the held-out pass) is returned, not
// a panic or a model trained on zeros.
func TestTrainRowsReadError(t *testing.T) {
	x, y := toy(300, 9)
	o := Options{Sub: 3, Passes: 2, Threads: 1}
	var total int64
	{
		f := &failingRows{Rows: DenseRows(x), ok: 1 << 60}
		if _, err := TrainRows(context.Background(), f, y, &o); err != nil {
			t.Fatal(err)
		}
		total = f.reads.Load()
	}
	for _, ok := range []int64{0, 1, 2, 5, total / 2, total - 1} {
		f := &failingRows{Rows: DenseRows(x), ok: ok}
		res, err := TrainRows(context.Background(), f, y, &o)
		if !errors.Is(err, errDisk) {
			t.Errorf("failing after %d of %d reads: got %v (result %v), want the read error", ok, total, err, res != nil)
		}
	}
}

// cancelRows cancels a context at its at-th read and counts the reads
// after that.
type cancelRows struct {
	Rows
	at     int64
	cancel context.CancelFunc
	reads  atomic.Int64
}

func (c *cancelRows) RowsTo(dst []float64, idx []int) {
	if c.reads.Add(1) == c.at {
		c.cancel()
	}
	c.Rows.RowsTo(dst, idx)
}

// TestTrainRowsCancel: cancelling a run that reads its rows (a streamed
// run) stops it within one chunk of reads: after the read that cancelled,
// at most the rest of that scoring round and the read of the active set
// for the partial result.
func TestTrainRowsCancel(t *testing.T) {
	x, y := toy(3000, 2)
	o := Options{Sub: 3, Passes: 2, Threads: 1}
	var total int64
	{
		c := &cancelRows{Rows: DenseRows(x), at: -1, cancel: func() {}}
		if _, err := TrainRows(context.Background(), c, y, &o); err != nil {
			t.Fatal(err)
		}
		total = c.reads.Load()
	}
	for _, at := range []int64{2, 10, total / 3, total / 2, total - 5} {
		ctx, cancel := context.WithCancel(context.Background())
		c := &cancelRows{Rows: DenseRows(x), at: at, cancel: cancel}
		_, err := TrainRows(ctx, c, y, &o)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled at read %d of %d: got %v", at, total, err)
		}
		if after := c.reads.Load() - at; after > 2 {
			t.Errorf("cancelled at read %d of %d: %d more reads", at, total, after)
		}
	}
}
