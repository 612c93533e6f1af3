package score

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/passgp-fast/passgp-fast/beam/internal/beamrun"
	"github.com/passgp-fast/passgp-fast/data"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*Shard)(nil)).Elem())
	register.DoFn4x1[context.Context, Shard, []byte, func(int), error](&scoreFn{})
	register.Emitter1[int]()
}

// Job is what every worker needs besides its shard and the model's
// bytes: where the rows are, where the results go and what to compute.
type Job struct {
	// RunID names the run's shard files (and, in the driver's process,
	// the run: see beamrun.StartRun).
	RunID string
	// Model names the model in errors.
	Model string
	// Data is the binary data file: a path every worker can open.
	Data string
	// Dir is the directory (a Beam file system path) of the shard files.
	Dir string
	// Latent asks for the latent means and variances.
	Latent bool
	// Model decoding.
	ModelOptions
}

// ShardFile is the path of shard i's results.
func (j *Job) ShardFile(i int) string {
	return fmt.Sprintf("%s/%s-shard-%06d.bin", j.Dir, j.RunID, i)
}

// shardStarts, when not nil, is called by a worker in the driver's
// process as it starts a shard, with the context it scores under: the
// cancellation tests' hook.
var shardStarts func(ctx context.Context, sh Shard)

// scoreFn scores a shard and writes its shard file.
type scoreFn struct {
	Job Job
	// scorer is decoded from the side input on first use: every element
	// of the run sees the same model.
	scorer *Scorer
}

// ProcessElement scores shard sh with the model whose bytes are
// modelBytes, writes the shard file and emits sh's index (beamrun.Sink).
func (f *scoreFn) ProcessElement(ctx context.Context, sh Shard, modelBytes []byte, emit func(int)) error {
	ctx, done, err := beamrun.JoinRun(ctx, f.Job.RunID)
	if err != nil {
		return err
	}
	defer done()
	if shardStarts != nil {
		shardStarts(ctx, sh)
	}
	if f.scorer == nil {
		if f.scorer, err = NewScorer(modelBytes, f.Job.Model, f.Job.ModelOptions); err != nil {
			return err
		}
	}
	src, err := data.OpenBinary(ctx, f.Job.Data, data.BinaryOptions{})
	if err != nil {
		return err
	}
	defer src.Close()
	r, err := f.scorer.ScoreBlock(ctx, src, sh.Lo, sh.Hi, f.Job.Latent)
	if err != nil {
		return err
	}
	if err := beamrun.WriteFile(ctx, f.Job.ShardFile(sh.Index), encodeShard(sh, r)); err != nil {
		return err
	}
	emit(sh.Index)
	return nil
}

// Build adds to s the scoring of shards by the model whose bytes are
// modelBytes, each shard's results to j.ShardFile(shard.Index). The
// shards are dealt into workers groups (beamrun.Groups), each its own
// Create, Reshuffle and ParDo, scored side by side. The model reaches
// the workers as a side input.
func Build(s beam.Scope, modelBytes []byte, shards []Shard, workers int, j Job) {
	s = s.Scope("passgp-fast.score")
	m := beam.Create(s, modelBytes)
	for w, group := range beamrun.Groups(shards, workers) {
		g := s.Scope(fmt.Sprintf("group%d", w))
		in := beam.Reshuffle(g, beam.CreateList(g, group))
		beamrun.Sink(g, beam.ParDo(g, &scoreFn{Job: j}, in, beam.SideInput{Input: m}))
	}
}
