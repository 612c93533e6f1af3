package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
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
	fs.StringVar(&d.path, "data", "", "data `FILE`: LIBSVM, CSV or MNIST IDX images; plain, .gz or .bz2"+req)
	fs.StringVar(&d.labels, "labels", "", "label `FILE` for IDX image data (default: the MNIST sibling ...-labels-idx1-... if present)")
	fs.StringVar(&d.format, "format", "auto", "data format: auto, libsvm, csv or idx")
	fs.IntVar(&d.labelCol, "label-col", 0, "CSV label column, 0-based; negative counts from the end")
	fs.Float64Var(&d.maxMemGiB, "max-mem", 16, "refuse a data file whose dense matrix, or a model whose posteriors, would take more than `GiB` of memory")
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

// parseFloats parses a comma-separated list of numbers.
func parseFloats(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	v := make([]float64, len(parts))
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%q is not a finite number", strings.TrimSpace(p))
		}
		v[i] = x
	}
	return v, nil
}

// parsePrior parses --prior: comma-separated components, each empty or
// "-" (flat) or MEAN:SD with MEAN > 0 on the θ scale and SD >= 0 in log
// units.
func parsePrior(s string) ([]ep.LogNormal, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []ep.LogNormal
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" || p == "-" {
			out = append(out, ep.LogNormal{})
			continue
		}
		ms := strings.Split(p, ":")
		if len(ms) != 2 {
			return nil, fmt.Errorf("%q: want MEAN:SD", p)
		}
		m, err1 := strconv.ParseFloat(ms[0], 64)
		sd, err2 := strconv.ParseFloat(ms[1], 64)
		if err1 != nil || err2 != nil || !(m > 0) || math.IsInf(m, 0) || !(sd >= 0) || math.IsInf(sd, 0) {
			return nil, fmt.Errorf("%q: want MEAN > 0 and SD >= 0, both finite", p)
		}
		out = append(out, ep.LogNormal{Mean: math.Log(m), SD: sd})
	}
	return out, nil
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
	help := "covariance function: se, se+lin, se+bias (SE plus a constant t4), seard (SE with one length scale per feature, ARD), seard+bias or poly"
	if def == "" {
		help += " (default: se+bias for passgp and ivm; se for fpassgp, random and full)"
	}
	fs.StringVar(&k.name, "kernel", def, help)
	fs.IntVar(&k.degree, "degree", 9, "polynomial degree p of the poly kernel (the paper's MNIST setting)")
	fs.Float64Var(&k.gamma, "gamma", 0, "input scale g of the poly kernel (default 1/d, as LIBSVM)")
	fs.StringVar(&k.theta, "theta", "", thetaHelp)
}

// isARD reports whether name is one of the ARD kernels, whose number of
// hyperparameters depends on the input dimension.
func isARD(name string) bool { return name == "seard" || name == "seard+bias" }

// ardKernel returns the ARD kernel name with θ for d features; θ must
// have d+2 values (d+3 with the bias).
func ardKernel(name string, theta []float64, d int) (kernel.Kernel, error) {
	np := d + 2
	if name == "seard+bias" {
		np++
	}
	if len(theta) != np {
		return nil, errUsage("--theta: kernel %s for %d features takes %d hyperparameters [t1, t2_1..t2_%d, t3%s], got %d", name, d, np, d, map[bool]string{true: ", t4"}[np == d+3], len(theta))
	}
	k, err := kernel.New(name, theta, 0, 0)
	if err != nil {
		return nil, errUsage("--theta: %v", strings.TrimPrefix(err.Error(), "kernel: "))
	}
	return k, nil
}

// kernel returns the kernel named by the flags with the given θ (nil θ:
// the kernel's own start values). For the ARD kernels, whose θ length
// depends on d, a nil θ gives a nil kernel (passgp.StartKernel builds it
// once d is known, ardKernel checks a θ against d).
func (k *kernelFlags) kernel(theta []float64) (kernel.Kernel, error) {
	switch k.name {
	case "se", "se+lin", "se+bias", "poly":
	case "seard", "seard+bias":
		if theta == nil {
			return nil, nil
		}
	default:
		return nil, errUsage("--kernel: unknown kernel %q (want se, se+lin, se+bias, seard, seard+bias or poly)", k.name)
	}
	if k.degree < 1 {
		return nil, errUsage("--degree must be a positive integer, got %d", k.degree)
	}
	if k.gamma < 0 || math.IsNaN(k.gamma) || math.IsInf(k.gamma, 0) {
		return nil, errUsage("--gamma must be >= 0, got %v", k.gamma)
	}
	kern, err := kernel.New(k.name, theta, k.degree, k.gamma)
	if err != nil {
		return nil, errUsage("--theta: %v", strings.TrimPrefix(err.Error(), "kernel: "))
	}
	return kern, nil
}

// parseImage parses WxH.
func parseImage(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		w, err = strconv.Atoi(a)
		if err == nil {
			h, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || w <= 0 || h <= 0 {
		return 0, 0, errUsage("--image: want WxH (e.g. 16x16), got %q", s)
	}
	return w, h, nil
}
