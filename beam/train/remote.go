package train

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/beam/internal/beamrun"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/score"
)

// Options controls New.
type Options struct {
	// Data is the binary data file (`passgp-fast convert`) that FitBinary
	// trains on: a path that the driver and every worker can open.
	Data string
	// Workers is the number of part groups scored side by side (Build);
	// 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Dir is the directory (a Beam file system path every worker can
	// write and the driver read) of the part files, which each call
	// removes once merged. Empty: a new temporary directory of the
	// driver's, removed by Close, which serves runners whose workers
	// share its file system (Prism).
	Dir string
	// PartRows is the number of rows per part, a positive multiple of
	// score.Chunk; 0 means DefaultPartRows.
	PartRows int
	// Execute runs a pipeline; nil means Beam's Prism runner in this
	// process (beamrun.PrismExecute: it needs beam.Init to have been
	// called, and its first run points Beam's process-wide --endpoint
	// and --environment_type flags at its job server).
	Execute func(context.Context, *beam.Pipeline) error
}

// Remote scores training's rows on Beam: a passgpfast.RemoteScorer.
type Remote struct {
	o       Options
	n       int
	tempDir string
}

var _ passgpfast.RemoteScorer = (*Remote)(nil)

// New checks o and the data file (it opens it, and reads its header)
// and returns the remote scorer; Close releases it.
func New(ctx context.Context, o Options) (*Remote, error) {
	if o.PartRows < 0 || o.PartRows%score.Chunk != 0 {
		return nil, fmt.Errorf("train: %d rows per part, want a positive multiple of %d", o.PartRows, score.Chunk)
	}
	src, err := data.OpenBinary(ctx, o.Data, data.BinaryOptions{})
	if err != nil {
		return nil, err
	}
	n := src.Len()
	if err := src.Close(); err != nil {
		return nil, err
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	r := &Remote{o: o, n: n}
	if o.Dir == "" {
		if r.tempDir, err = os.MkdirTemp("", "passgp-fast-beam-train-"); err != nil {
			return nil, err
		}
		r.o.Dir = r.tempDir
	}
	return r, nil
}

// Close removes the temporary directory of the part files, if New made
// one. The Remote is not for use afterwards.
func (r *Remote) Close() error {
	if r.tempDir == "" {
		return nil
	}
	return os.RemoveAll(r.tempDir)
}

// Score implements passgpfast.RemoteScorer: one pipeline that scores
// rows with the task's bytes task, merged into mean and vr. It is safe
// for concurrent use.
func (r *Remote) Score(ctx context.Context, task []byte, rows []int, y, mean, vr []float64) error {
	n := len(rows)
	if len(mean) != n || len(vr) != n || (y != nil && len(y) != n) {
		return fmt.Errorf("train: %d rows with %d labels, %d means and %d variances", n, len(y), len(mean), len(vr))
	}
	for _, i := range rows {
		if i < 0 || i >= r.n {
			return fmt.Errorf("%s: row %d of %d", r.o.Data, i+1, r.n)
		}
	}
	if n == 0 {
		return nil
	}
	size := r.o.PartRows
	if size == 0 {
		size = DefaultPartRows(n, r.o.Workers)
	}
	ps := parts(rows, y, size)
	j := Job{Data: r.o.Data, Dir: r.o.Dir}
	err := beamrun.Execute(ctx, r.o.Execute, func(s beam.Scope, id string) {
		j.RunID = id
		Build(s, task, ps, r.o.Workers, j)
	})
	if err != nil {
		beamrun.RemoveFiles(context.WithoutCancel(ctx), j.partFiles(ps))
		return err
	}
	return merge(ctx, ps, &j, scores{mean, vr})
}

// merge reads the part files of call j into dst in row order, removing
// each once read (and the rest after an error: beamrun.Collect).
func merge(ctx context.Context, ps []Part, j *Job, dst scores) error {
	paths := j.partFiles(ps)
	return beamrun.Collect(ctx, paths, func(i int, b []byte) error {
		return decodePartTo(dst, b, paths[i], ps[i])
	})
}

// partFiles returns the paths of call j's files of parts ps.
func (j *Job) partFiles(ps []Part) []string {
	paths := make([]string, len(ps))
	for i, p := range ps {
		paths[i] = j.PartFile(p.Index)
	}
	return paths
}
