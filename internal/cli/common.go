package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
)

// dataFlags are the flags that select a data file.
type dataFlags struct {
	dataURI
	labels    string
	maxMemGiB float64
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
	fs.Var(&d.dataURI, "data", "data `FILE`: LIBSVM, CSV, MNIST IDX images or binary (convert); plain, .gz or .bz2"+req+dataURIHelp)
	fs.StringVar(&d.labels, "labels", "", "label `FILE` for IDX images (default: the MNIST sibling labels file)")
	fs.Float64Var(&d.maxMemGiB, "max-mem", 16, "memory limit in `GiB` for the data's dense matrix (train from a binary file: its estimated memory, by fewer threads; predict, eval: a batch of rows) or a model's posteriors")
}

// stream opens the data file as a stream when it is a binary data file
// (convert), which training reads without holding it in memory; nil
// otherwise.
func (d *dataFlags) stream(ctx context.Context) (*data.BinarySource, error) {
	if d.path == "" {
		return nil, errUsage("--data FILE is required")
	}
	f, err := d.dataFormat()
	if err != nil {
		return nil, err
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
	f, err := d.dataFormat()
	if err != nil {
		return nil, err
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
	f, err := d.dataFormat()
	if err != nil {
		return nil, err
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
	spec  string // --kernel: a name, or poly:DEGREE[:GAMMA]
	theta string
}

// register adds the kernel flags; def is --kernel's default ("" for the
// training method's own, passgp.DefaultKernel).
func (k *kernelFlags) register(fs *flagSet, def, thetaHelp string) {
	help := "kernel: " + passgpfast.KernelNames + "; poly:DEGREE[:GAMMA] sets the polynomial degree p (default 9) and input scale g (default 1/d, as LIBSVM)"
	if def == "" {
		help += " (default: se+bias, se for fpassgp, random, full)"
	}
	fs.StringVar(&k.spec, "kernel", def, help)
	fs.StringVar(&k.theta, "theta", "", thetaHelp)
}

// defaultDegree is the poly kernel's degree when --kernel does not give
// one: the paper's p = 9 for MNIST (Section 6.3).
const defaultDegree = 9

// parse splits the kernel spec into the kernel's name, polynomial degree
// and input scale (0: 1/d): poly:DEGREE[:GAMMA] for the poly kernel, a
// bare name otherwise.
func (k *kernelFlags) parse() (name string, degree int, gamma float64, err error) {
	parts := strings.Split(k.spec, ":")
	name, degree = parts[0], defaultDegree
	if len(parts) == 1 {
		return name, degree, 0, nil
	}
	if name != "poly" || len(parts) > 3 {
		return "", 0, 0, errUsage("--kernel %q: want a kernel name, or poly:DEGREE[:GAMMA] (e.g. poly:9)", k.spec)
	}
	if degree, err = strconv.Atoi(parts[1]); err != nil || degree < 1 {
		return "", 0, 0, errUsage("--kernel %q: the degree must be a positive integer, got %q", k.spec, parts[1])
	}
	if len(parts) == 3 {
		if gamma, err = strconv.ParseFloat(parts[2], 64); err != nil || !(gamma > 0) || math.IsInf(gamma, 0) {
			return "", 0, 0, errUsage("--kernel %q: the input scale must be a positive number, got %q", k.spec, parts[2])
		}
	}
	return name, degree, gamma, nil
}
