package main

import (
	"context"
	"fmt"
	"io"
	"math"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/ep"
)

func runEvidence(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("evidence", "--data FILE --kernel se|se+lin|se+bias|seard|seard+bias|poly [--degree P] [--gamma G] --theta t1,t2,... [--json]",
		`Runs EP on every point of a binary data set (labels: two distinct values,
the larger is +1) and prints log Z_EP and its gradient with respect to
log θ, in the order of --theta (SPEC.md section 1):
  se      t1,t2,t3     signal variance, squared length scale, jitter
  se+lin  t1,t2,t3,t4  SE plus linear weight t4
  se+bias t1,t2,t3,t4  SE plus constant (bias variance) t4
  seard   t1,t2_1,..,t2_d,t3     SE with a squared length scale per feature
  seard+bias t1,t2_1,..,t2_d,t3,t4  seard plus constant t4
  poly    t1,t3        signal variance, jitter (degree and gamma are fixed)`)
	var df dataFlags
	df.register(fs, true)
	var kf kernelFlags
	kf.register(fs, "se", "hyperparameters `t1,t2,...` in the paper's order (required)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	schedule := fs.String("schedule", "parallel", "EP schedule: parallel or sequential")
	tol := fs.Float64("tol", 1e-4, "stop when |Δ log Z_EP| between sweeps is at most this")
	maxSweeps := fs.Int("max-sweeps", 100, "EP sweep cap")
	maxGB := fs.Float64("max-gb", 8, "refuse data sets whose n×n EP matrices would need more than `GB` gigabytes")
	if code, ok := fs.parse(args, stdout, stderr); !ok {
		return code
	}
	res, err := evidence(ctx, &df, &kf, *schedule, *tol, *maxSweeps, *maxGB)
	if err != nil {
		return exitFor(stderr, "evidence", err)
	}
	if *asJSON {
		return printJSON(stdout, stderr, "evidence", res)
	}
	fmt.Fprintf(stdout, "n          %d (d = %d, %d positive = label %v)\n", res.N, res.D, res.NPositive, res.Positive)
	fmt.Fprintf(stdout, "kernel     %s, theta %v %v\n", res.Kernel, res.ThetaNames, res.Theta)
	fmt.Fprintf(stdout, "log Z_EP   %.10g\n", res.LogZ)
	fmt.Fprintf(stdout, "d/dlogθ    %.10g\n", res.GradLogTheta)
	fmt.Fprintf(stdout, "sweeps     %d (%s)\n", res.Sweeps, res.Schedule)
	return exitOK
}

func evidence(ctx context.Context, df *dataFlags, kf *kernelFlags, schedule string, tol float64, maxSweeps int, maxGB float64) (*passgpfast.EvidenceResult, error) {
	if df.path == "" {
		return nil, errUsage("--data FILE is required")
	}
	if kf.theta == "" {
		return nil, errUsage("--theta t1,t2,... is required")
	}
	theta, err := parseFloats(kf.theta)
	if err != nil {
		return nil, errUsage("--theta: %v", err)
	}
	k, err := passgpfast.NewKernel(kf.name, theta, kf.degree, kf.gamma, 0)
	if err != nil {
		return nil, err
	}
	var o ep.Options
	switch schedule {
	case "parallel":
		o.Schedule = ep.Parallel
	case "sequential":
		o.Schedule = ep.Sequential
	default:
		return nil, errUsage("--schedule: want parallel or sequential, got %q", schedule)
	}
	if !(tol > 0) || math.IsInf(tol, 0) {
		return nil, errUsage("--tol must be positive, got %v", tol)
	}
	if maxSweeps < 1 {
		return nil, errUsage("--max-sweeps must be at least 1, got %d", maxSweeps)
	}
	if !(maxGB > 0) {
		return nil, errUsage("--max-gb must be positive, got %v", maxGB)
	}
	o.Tol, o.MaxSweeps = tol, maxSweeps
	ds, err := df.load(0)
	if err != nil {
		return nil, err
	}
	k, err = passgpfast.NewKernel(kf.name, theta, kf.degree, kf.gamma, ds.D)
	if err != nil {
		return nil, err
	}
	ds.Source = df.path
	return passgpfast.Evidence(ctx, ds, k, o, maxGB)
}
