package score

import (
	"context"

	"github.com/passgp-fast/passgp-fast/beam/internal/beamrun"
)

// merge hands the shard files of run j to visit in row order, removing
// each once visited (and the rest after an error: beamrun.Collect).
func merge(ctx context.Context, p Plan, j *Job, visit func(Plan, Shard, *Rows) error) error {
	k := 0
	if j.Latent {
		k = p.K
	}
	paths := j.shardFiles(p.Shards)
	return beamrun.Collect(ctx, paths, func(i int, b []byte) error {
		sh := p.Shards[i]
		r, err := decodeShard(b, paths[i], sh, len(p.Outputs), k)
		if err != nil {
			return err
		}
		return visit(p, sh, r)
	})
}

// shardFiles returns the paths of run j's files of shards.
func (j *Job) shardFiles(shards []Shard) []string {
	paths := make([]string, len(shards))
	for i, sh := range shards {
		paths[i] = j.ShardFile(sh.Index)
	}
	return paths
}
