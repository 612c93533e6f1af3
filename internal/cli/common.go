package cli

import (
	"context"
	"fmt"
	"io"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
)

// dataFlags are the flags that select a data file.
type dataFlags struct {
	path, labels, format string
	labelCol             int
	maxMemGiB            float64
	// raw ignores the model's calibration (registerRaw); notes receives
	// the one-line notes of loading a model.
	raw   bool
	notes io.Writer
}

// registerRaw adds --raw, for the commands that predict.
func (d *dataFlags) registerRaw(fs *flagSet) {
	fs.BoolVar(&d.raw, "raw", false, "use the raw one-vs-rest probabilities q (paper eq. 4) instead of the model's calibrated ones")
}

// maxBytes is --max-mem in bytes.
func (d *dataFlags) maxBytes() int64 { return int64(d.maxMemGiB * (1 << 30)) }

func (d *dataFlags) register(fs *flagSet, required bool) {
	req := ""
	if required {
		req = " (required)"
	}
	fs.StringVar(&d.path, "data", "", "data `FILE`: LIBSVM, CSV, MNIST IDX images or binary (convert); plain, .gz or .bz2"+req)
	fs.StringVar(&d.labels, "labels", "", "label `FILE` for IDX images (default: the MNIST sibling labels file)")
	fs.StringVar(&d.format, "format", "auto", "data format: auto, libsvm, csv, idx or binary")
	fs.IntVar(&d.labelCol, "label-col", 0, "CSV label column, 0-based; negative counts from the end")
	fs.Float64Var(&d.maxMemGiB, "max-mem", 16, "memory limit in `GiB` for the data's dense matrix (predict, eval: a batch of rows) or a model's posteriors")
}

// stream opens the data file as a stream when it is a binary data file
// (convert), which training reads without holding it in memory; nil
// otherwise.
func (d *dataFlags) stream(ctx context.Context) (*data.BinarySource, error) {
	if d.path == "" {
		return nil, errUsage("--data FILE is required")
	}
	f, err := data.ParseFormat(d.format)
	if err != nil {
		return nil, errUsage("--format: %v", err)
	}
	if f, err = data.FormatOf(d.path, f); err != nil || f != data.Binary {
		return nil, err
	}
	src, err := data.OpenBinary(ctx, d.path, data.BinaryOptions{}) // the first pass checks the checksum
	if err != nil {
		return nil, err
	}
	if src.Len() == 0 {
		src.Close()
		return nil, fmt.Errorf("%s: no examples", d.path)
	}
	return src, nil
}

// open opens the data file as a stream of rows (data.OpenSource) for a
// model of dim features, with load's options: a LIBSVM file may lack the
// last features.
func (d *dataFlags) open(ctx context.Context, dim int) (data.Source, error) {
	f, err := data.ParseFormat(d.format)
	if err != nil {
		return nil, errUsage("--format: %v", err)
	}
	if !(d.maxMemGiB > 0) {
		return nil, errUsage("--max-mem must be positive, got %v", d.maxMemGiB)
	}
	// MinDim pads a LIBSVM file that lacks the last features.
	o := data.Options{Format: f, Labels: d.labels, CSV: data.CSVOptions{Label: d.labelCol}, MinDim: dim}
	src, err := data.OpenSource(ctx, d.path, o)
	if err != nil {
		return nil, err
	}
	if src.Dim() != dim {
		src.Close()
		return nil, fmt.Errorf("%s: %d features, but the model was trained on %d", d.path, src.Dim(), dim)
	}
	return src, nil
}

// maxBatchChunks bounds a batch of predictions at this many
// passgpfast.PredictChunk blocks of rows: the model is called a block at
// a time whatever the batch, so larger batches would only take memory.
const maxBatchChunks = 4

// batchRows is the number of rows a batch of predictions of src's rows by
// a model of k binary classifiers holds within --max-mem: a row's inputs
// and label and its predictions (latents, shares, correlations, their
// gated copies and the probabilities: about 7k numbers), rounded down to
// a multiple of passgpfast.PredictChunk, so that every row is predicted
// as in one call on all the rows, bit for bit; at least one block, at
// most maxBatchChunks and no more than src's rows need where it knows
// their number.
func (d *dataFlags) batchRows(src data.Source, k int) int {
	n := d.maxBytes() / int64(8*(src.Dim()+7*k+3)) / passgpfast.PredictChunk
	n = min(max(n, 1), maxBatchChunks)
	if l := src.Len(); l > 0 {
		n = min(n, int64((l+passgpfast.PredictChunk-1)/passgpfast.PredictChunk))
	}
	return int(n) * passgpfast.PredictChunk
}

// load reads the data file; dim > 0 fixes the number of features (a
// model's input dimension).
func (d *dataFlags) load(dim int) (*data.Dataset, error) {
	if d.path == "" {
		return nil, errUsage("--data FILE is required")
	}
	f, err := data.ParseFormat(d.format)
	if err != nil {
		return nil, errUsage("--format: %v", err)
	}
	if !(d.maxMemGiB > 0) {
		return nil, errUsage("--max-mem must be positive, got %v", d.maxMemGiB)
	}
	o := data.Options{Format: f, Labels: d.labels, CSV: data.CSVOptions{Label: d.labelCol}, MaxBytes: d.maxBytes()}
	if dim > 0 {
		// A LIBSVM test file may lack the last features; MinDim pads it.
		o.MinDim = dim
	}
	ds, err := data.Load(d.path, o)
	if err != nil {
		return nil, err
	}
	if ds.N == 0 {
		return nil, fmt.Errorf("%s: no examples", d.path)
	}
	if dim > 0 && ds.D != dim {
		return nil, fmt.Errorf("%s: %d features, but the model was trained on %d", d.path, ds.D, dim)
	}
	if err := ds.Validate(0); err != nil {
		return nil, err
	}
	return ds, nil
}

// usageError marks errors that are the command line's fault (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func errUsage(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// kernelFlags select a covariance function.
type kernelFlags struct {
	name   string
	degree int
	gamma  float64
	theta  string
}

// register adds the kernel flags; def is --kernel's default ("" for the
// training method's own, passgp.DefaultKernel).
func (k *kernelFlags) register(fs *flagSet, def, thetaHelp string) {
	help := "kernel: " + passgpfast.KernelNames
	if def == "" {
		help += " (default: se+bias, se for fpassgp, random, full)"
	}
	fs.StringVar(&k.name, "kernel", def, help)
	fs.IntVar(&k.degree, "degree", 9, "polynomial degree p of the poly kernel")
	fs.Float64Var(&k.gamma, "gamma", 0, "input scale g of the poly kernel (default 1/d, as LIBSVM)")
	fs.StringVar(&k.theta, "theta", "", thetaHelp)
}
