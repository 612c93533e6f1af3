// Command evidence runs EP on every point of a binary data set (labels:
// two distinct values, the larger is +1) and prints log Z_EP and its
// gradient with respect to log θ, in the order of --theta (SPEC.md
// section 1). It is a developer diagnostic of passgpfast.Evidence, EP on
// all points, which the trained models never run.
//
//	se         t1,t2,t3                signal variance, squared length scale, jitter
//	se+lin     t1,t2,t3,t4             SE plus linear weight t4
//	se+bias    t1,t2,t3,t4             SE plus constant (bias variance) t4
//	seard      t1,t2_1,..,t2_d,t3      SE with a squared length scale per feature
//	seard+bias t1,t2_1,..,t2_d,t3,t4   seard plus constant t4
//	poly       t1,t3                   signal variance, jitter (degree and gamma are fixed)
//
//	go run ./bench/evidence --data ../shared/data/ijcnn1.train.bz2 --kernel se --theta 1,0.125,0.0625 --json
//
// Exit codes: 0 success, 1 bad data or a numerical failure, 2 bad command
// line.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"syscall"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/ep"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// flags are the command line's settings.
type flags struct {
	path, labels, format, kernel, theta, schedule string
	labelCol, degree, maxSweeps                   int
	gamma, tol, maxGB, maxMemGiB                  float64
	asJSON                                        bool
}

// run executes the command line args and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("evidence", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f flags
	fs.StringVar(&f.path, "data", "", "data `FILE`: LIBSVM, CSV, MNIST IDX images or binary; plain, .gz or .bz2 (required)")
	fs.StringVar(&f.labels, "labels", "", "label `FILE` for IDX images (default: the MNIST sibling labels file)")
	fs.StringVar(&f.format, "format", "auto", "data format: auto, libsvm, csv, idx or binary")
	fs.IntVar(&f.labelCol, "label-col", 0, "CSV label column, 0-based; negative counts from the end")
	fs.Float64Var(&f.maxMemGiB, "max-mem", 16, "memory limit in `GiB` for the data's dense matrix")
	fs.StringVar(&f.kernel, "kernel", "se", "kernel: "+passgpfast.KernelNames)
	fs.IntVar(&f.degree, "degree", 9, "polynomial degree p of the poly kernel")
	fs.Float64Var(&f.gamma, "gamma", 0, "input scale g of the poly kernel (default 1/d, as LIBSVM)")
	fs.StringVar(&f.theta, "theta", "", "hyperparameters `t1,t2,...` in the paper's order (required)")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object")
	fs.StringVar(&f.schedule, "schedule", "parallel", "EP schedule: parallel or sequential")
	fs.Float64Var(&f.tol, "tol", 1e-4, "stop when |Δ log Z_EP| between sweeps is at most this")
	fs.IntVar(&f.maxSweeps, "max-sweeps", 100, "EP sweep cap")
	fs.Float64Var(&f.maxGB, "max-gb", 8, "refuse data sets whose n×n EP matrices would need more than `GB` gigabytes")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "evidence: unexpected arguments %q\n", fs.Args())
		return 2
	}
	res, err := evidence(ctx, &f)
	var ue *usageError
	var ce *passgpfast.ConfigError
	switch {
	case errors.As(err, &ue) || errors.As(err, &ce):
		fmt.Fprintf(stderr, "evidence: %v\n", err)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "evidence: %v\n", err)
		return 1
	case f.asJSON:
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "evidence: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	fmt.Fprintf(stdout, "n          %d (d = %d, %d positive = label %v)\n", res.N, res.D, res.NPositive, res.Positive)
	fmt.Fprintf(stdout, "kernel     %s, theta %v %v\n", res.Kernel, res.ThetaNames, res.Theta)
	fmt.Fprintf(stdout, "log Z_EP   %.10g\n", res.LogZ)
	fmt.Fprintf(stdout, "d/dlogθ    %.10g\n", res.GradLogTheta)
	fmt.Fprintf(stdout, "sweeps     %d (%s)\n", res.Sweeps, res.Schedule)
	return 0
}

// usageError marks errors that are the command line's fault (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func errUsage(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// evidence checks the flags, loads the data and runs passgpfast.Evidence.
func evidence(ctx context.Context, f *flags) (*passgpfast.EvidenceResult, error) {
	if f.path == "" {
		return nil, errUsage("--data FILE is required")
	}
	if strings.TrimSpace(f.theta) == "" {
		return nil, errUsage("--theta t1,t2,... is required")
	}
	theta, err := passgpfast.ParseFloats(f.theta)
	if err != nil {
		return nil, errUsage("--theta: %v", err)
	}
	if _, err := passgpfast.NewKernel(f.kernel, theta, f.degree, f.gamma, 0); err != nil {
		return nil, err
	}
	var o ep.Options
	switch f.schedule {
	case "parallel":
		o.Schedule = ep.Parallel
	case "sequential":
		o.Schedule = ep.Sequential
	default:
		return nil, errUsage("--schedule: want parallel or sequential, got %q", f.schedule)
	}
	switch {
	case !(f.tol > 0) || math.IsInf(f.tol, 0):
		return nil, errUsage("--tol must be positive, got %v", f.tol)
	case f.maxSweeps < 1:
		return nil, errUsage("--max-sweeps must be at least 1, got %d", f.maxSweeps)
	case !(f.maxGB > 0):
		return nil, errUsage("--max-gb must be positive, got %v", f.maxGB)
	case !(f.maxMemGiB > 0):
		return nil, errUsage("--max-mem must be positive, got %v", f.maxMemGiB)
	}
	o.Tol, o.MaxSweeps = f.tol, f.maxSweeps
	ds, err := load(f)
	if err != nil {
		return nil, err
	}
	k, err := passgpfast.NewKernel(f.kernel, theta, f.degree, f.gamma, ds.D)
	if err != nil {
		return nil, err
	}
	return passgpfast.Evidence(ctx, ds, k, o, f.maxGB)
}

// load reads and checks the data file.
func load(f *flags) (*data.Dataset, error) {
	format, err := data.ParseFormat(f.format)
	if err != nil {
		return nil, errUsage("--format: %v", err)
	}
	o := data.Options{Format: format, Labels: f.labels, CSV: data.CSVOptions{Label: f.labelCol}, MaxBytes: int64(f.maxMemGiB * (1 << 30))}
	ds, err := data.Load(f.path, o)
	if err != nil {
		return nil, err
	}
	if ds.N == 0 {
		return nil, fmt.Errorf("%s: no examples", f.path)
	}
	if err := ds.Validate(0); err != nil {
		return nil, err
	}
	ds.Source = f.path
	return ds, nil
}
