package score

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
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
		b, err := readFile(ctx, name)
		var r *Rows
		if err == nil {
			r, err = decodeShard(b, name, sh, len(p.Outputs), k)
		}
		if err == nil {
			err = visit(p, sh, r)
		}
		if err == nil {
			err = removeFile(ctx, name)
		}
		if err != nil {
			removeShards(context.WithoutCancel(ctx), p.Shards[i:], j)
			return err
		}
	}
	return nil
}

// readFile reads the file at a Beam file system path.
func readFile(ctx context.Context, path string) ([]byte, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	return filesystem.Read(ctx, fs, path)
}

// removeFile removes the file at a Beam file system path, where the
// file system can.
func removeFile(ctx context.Context, path string) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	if r, ok := fs.(filesystem.Remover); ok {
		return r.Remove(ctx, path)
	}
	return nil
}

// removeShards removes whatever shard files of run j a failed run left:
// a clean-up after an error that the caller returns, so it reports
// nothing itself (most of the files may not exist).
func removeShards(ctx context.Context, shards []Shard, j *Job) {
	for _, sh := range shards {
		_ = removeFile(ctx, j.ShardFile(sh.Index))
	}
}
