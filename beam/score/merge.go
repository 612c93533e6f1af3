package score

import (
	"context"

	"github.com/passgp-fast/passgp-fast/beam/internal/beamrun"
)

// merge hands the shard files of run j to visit in row order, removing
// each once visited (and the rest after an error).
func merge(ctx context.Context, p Plan, j *Job, visit func(Plan, Shard, *Rows) error) error {
	k := 0
	if j.Latent {
		k = p.K
	}
	for i, sh := range p.Shards {
		name := j.ShardFile(sh.Index)
		b, err := beamrun.ReadFile(ctx, name)
		var r *Rows
		if err == nil {
			r, err = decodeShard(b, name, sh, len(p.Outputs), k)
		}
		if err == nil {
			err = visit(p, sh, r)
		}
		if err == nil {
			err = beamrun.RemoveFile(ctx, name)
		}
		if err != nil {
			removeShards(context.WithoutCancel(ctx), p.Shards[i:], j)
			return err
		}
	}
	return nil
}

// removeShards removes whatever shard files of run j a failed run left.
func removeShards(ctx context.Context, shards []Shard, j *Job) {
	paths := make([]string, len(shards))
	for i, sh := range shards {
		paths[i] = j.ShardFile(sh.Index)
	}
	beamrun.RemoveFiles(ctx, paths)
}
