package passgpfast

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// EvidenceResult is EP's evidence on every point of a binary data set
// (`go run ./bench/evidence` prints it).
type EvidenceResult struct {
	N            int       `json:"n"`
	D            int       `json:"d"`
	Kernel       string    `json:"kernel"`
	Theta        []float64 `json:"theta"`
	ThetaNames   []string  `json:"theta_names"`
	LogZ         float64   `json:"log_z"`
	GradLogTheta []float64 `json:"grad_log_theta"`
	Sweeps       int       `json:"sweeps"`
	Schedule     string    `json:"schedule"`
	Positive     float64   `json:"positive_label"`
	NPositive    int       `json:"n_positive"`
}

// Evidence runs EP with kernel k on every point of the binary data set ds
// (two labels, the larger +1) and returns log Z_EP and its gradient with
// respect to log θ (SPEC.md section 1). It refuses data sets whose n×n EP
// matrices would need more than maxGB gigabytes.
func Evidence(ctx context.Context, ds *data.Dataset, k kernel.Kernel, o ep.Options, maxGB float64) (*EvidenceResult, error) {
	// EP on all points holds about three n×n float64 matrices (K, the
	// Cholesky factor and a workspace).
	if need := 3 * 8 * float64(ds.N) * float64(ds.N) / 1e9; need > maxGB {
		return nil, fmt.Errorf("%s: EP on all %d points needs about %.1f GB for its n×n matrices (limit %g GB); use a subset, or train with an active set method", source(ds), ds.N, need, maxGB)
	}
	y, err := ds.BinaryLabels(nil)
	if err != nil {
		return nil, err
	}
	post, err := ep.InferContext(ctx, k, ds.Dense(), y, nil, &o)
	if err != nil {
		var nc *ep.NotConvergedError
		if errors.As(err, &nc) {
			return nil, fmt.Errorf("%s: %v (raise --max-sweeps or --tol)", source(ds), err)
		}
		return nil, fmt.Errorf("%s: %w", source(ds), err)
	}
	r := &EvidenceResult{N: ds.N, D: ds.D, Kernel: k.Name(), Theta: k.Params(), ThetaNames: k.ParamNames(),
		LogZ: post.LogZ, GradLogTheta: post.GradientTo(nil), Sweeps: post.Sweeps, Schedule: o.Schedule.String()}
	cl := ds.Classes()
	r.Positive = cl[len(cl)-1]
	for _, v := range y {
		if v > 0 {
			r.NPositive++
		}
	}
	if math.IsNaN(r.LogZ) || math.IsInf(r.LogZ, 0) {
		return nil, fmt.Errorf("%s: log Z_EP is %v", source(ds), r.LogZ)
	}
	return r, nil
}
