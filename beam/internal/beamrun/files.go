package beamrun

import (
	"context"
	"hash/crc32"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // plain paths
)

// ReadFile reads the file at a Beam file system path.
func ReadFile(ctx context.Context, path string) ([]byte, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	return filesystem.Read(ctx, fs, path)
}

// WriteFile writes b to the file at a Beam file system path.
func WriteFile(ctx context.Context, path string, b []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	return filesystem.Write(ctx, fs, path, b)
}

// RemoveFile removes the file at a Beam file system path, where the
// file system can.
func RemoveFile(ctx context.Context, path string) error {
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

// RemoveFiles removes whatever of the files at paths exist: a clean-up
// after an error that the caller returns, so it reports nothing itself.
func RemoveFiles(ctx context.Context, paths []string) {
	for _, p := range paths {
		_ = RemoveFile(ctx, p)
	}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum returns the CRC-32C of b, which shard files end with: it
// catches a file torn by a failed write.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// Groups deals items into min(workers, len(items)) groups (at least 1),
// item i to group i mod groups: a pipeline gives each group its own
// Create, Reshuffle and ParDo, so that a runner that runs independent
// stages at once (Prism runs each in its own bundle) works on the groups
// in parallel, and one that balances a Reshuffle's output over its
// workers (Flink, Spark, Dataflow) spreads each group too.
func Groups[T any](items []T, workers int) [][]T {
	g := make([][]T, max(1, min(workers, len(items))))
	for i, it := range items {
		g[i%len(g)] = append(g[i%len(g)], it)
	}
	return g
}
