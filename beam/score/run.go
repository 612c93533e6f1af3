package score

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/beam/internal/beamrun"
	"github.com/passgp-fast/passgp-fast/data"
)

// Options controls Run.
type Options struct {
	// Model is the model file (`passgp-fast train --model`): a Beam file
	// system path that the driver reads; the workers get its bytes.
	Model string
	// Data is the binary data file (`passgp-fast convert`): a path that
	// the driver and every worker can open.
	Data string
	// Dir is the directory (a Beam file system path every worker can
	// write and the driver read) of the shard files, which Run removes
	// once merged. Empty: a new temporary directory of the driver's,
	// which serves runners whose workers share its file system (Prism).
	Dir string
	// ShardRows is the number of rows per shard, a positive multiple of
	// Align; 0 means DefaultShardRows.
	ShardRows int
	// Workers is the number of shard groups scored side by side (Build);
	// 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Latent asks for the latent means and variances.
	Latent bool
	// Model decoding (Raw, MaxBytes).
	ModelOptions
	// Execute runs the pipeline; nil means Beam's Prism runner in this
	// process (prism.Execute), which needs beam.Init to have been called.
	// prism.Execute changes Beam's process-wide settings: its first run
	// starts a job server in the process and points Beam's --endpoint
	// and --environment_type flags (loopback workers) at it, for every
	// later Beam run of the process (beamrun.PrismExecute).
	Execute func(context.Context, *beam.Pipeline) error
}

// Result are the merged results of every row of the data file.
type Result struct {
	// Outputs names the probability columns.
	Outputs []string
	// Rows are the results, in the data file's row order.
	Rows
	// Shards is the number of shards the rows were scored in.
	Shards int
}

// DefaultShardRows returns the rows per shard for n rows and workers
// groups: about four shards per group, so that a slow worker holds up
// the end of the run by a quarter of its share, rounded up to a
// multiple of Align and at most 16·Align, which bounds a shard's
// results (a shard file) to 16·Align rows.
func DefaultShardRows(n, workers int) int {
	per := (n + 4*workers - 1) / max(4*workers, 1)
	rows := (per + Align - 1) / Align * Align
	return min(max(rows, Align), 16*Align)
}

// Run scores every row of o.Data with o.Model on Beam (Build) and merges
// the shard files in row order. It stops with ctx's error when ctx ends:
// workers in this process stop within a piece of Align rows and Run
// waits for them; a remote runner's job is the runner's to cancel.
func Run(ctx context.Context, o Options) (*Result, error) {
	var res *Result
	err := RunEach(ctx, o, func(p Plan, sh Shard, r *Rows) error {
		if res == nil {
			res = &Result{Outputs: p.Outputs, Rows: *newRows(p.N, len(p.Outputs), p.K, o.Latent), Shards: len(p.Shards)}
		}
		nc := len(p.Outputs)
		res.Prob.Slice(sh.Lo, sh.Hi, 0, nc).(*mat.Dense).Copy(r.Prob)
		copy(res.Decision[sh.Lo:sh.Hi], r.Decision)
		if o.Latent {
			res.Mean.Slice(sh.Lo, sh.Hi, 0, p.K).(*mat.Dense).Copy(r.Mean)
			res.Var.Slice(sh.Lo, sh.Hi, 0, p.K).(*mat.Dense).Copy(r.Var)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Plan is a run's layout, as RunEach's visit sees it.
type Plan struct {
	// N is the number of rows; Shards split them in row order.
	N      int
	Shards []Shard
	// Outputs names the probability columns; K is the number of binary
	// classifiers (the latent columns).
	Outputs []string
	K       int
}

// RunEach is Run handing the results to visit shard by shard, in row
// order, instead of holding them all: the driver holds one shard's
// results at a time. An error from visit ends the merge and is RunEach's.
func RunEach(ctx context.Context, o Options, visit func(p Plan, sh Shard, r *Rows) error) error {
	modelBytes, err := beamrun.ReadFile(ctx, o.Model)
	if err != nil {
		return err
	}
	sc, err := NewScorer(modelBytes, o.Model, o.ModelOptions)
	if err != nil {
		return err
	}
	n, err := checkData(ctx, o.Data, sc.D())
	if err != nil {
		return err
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	rows := o.ShardRows
	if rows == 0 {
		rows = DefaultShardRows(n, workers)
	}
	if rows < 0 || rows%Align != 0 {
		return fmt.Errorf("score: %d rows per shard, want a positive multiple of %d", rows, Align)
	}
	p := Plan{N: n, Shards: Shards(n, rows), Outputs: sc.Outputs(), K: sc.K()}
	j := Job{Model: o.Model, Data: o.Data, Dir: o.Dir, Latent: o.Latent, ModelOptions: o.ModelOptions}
	if j.Dir == "" {
		if j.Dir, err = os.MkdirTemp("", "passgp-fast-beam-"); err != nil {
			return err
		}
		defer os.RemoveAll(j.Dir)
	}
	if err := execute(ctx, o, modelBytes, p.Shards, workers, &j); err != nil {
		beamrun.RemoveFiles(context.WithoutCancel(ctx), j.shardFiles(p.Shards))
		return err
	}
	return merge(ctx, p, &j, visit)
}

// execute builds the pipeline and runs it as run j (whose ID it sets).
func execute(ctx context.Context, o Options, modelBytes []byte, shards []Shard, workers int, j *Job) error {
	return beamrun.Execute(ctx, o.Execute, func(s beam.Scope, id string) {
		j.RunID = id
		Build(s, modelBytes, shards, workers, *j)
	})
}

// checkData opens the binary data file and returns its number of rows,
// checking that it has d features and at least one row.
func checkData(ctx context.Context, path string, d int) (int, error) {
	src, err := data.OpenBinary(ctx, path, data.BinaryOptions{})
	if err != nil {
		return 0, err
	}
	defer src.Close()
	switch {
	case src.Dim() != d:
		return 0, fmt.Errorf("%s: %d features, but the model was trained on %d", path, src.Dim(), d)
	case src.Len() == 0:
		return 0, fmt.Errorf("%s: no examples", path)
	}
	return src.Len(), nil
}
