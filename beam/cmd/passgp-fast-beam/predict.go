package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/passgp-fast/passgp-fast/beam/score"
	"github.com/passgp-fast/passgp-fast/data"
)

// predictOpts are predict's flags.
type predictOpts struct {
	model, data, out string
	raw              bool
	shardRows        int
	maxMemGiB        float64
	*sharedFlags
}

// registerPredict registers predict's flags on fs.
func registerPredict(fs *flag.FlagSet, s *sharedFlags) *predictOpts {
	o := &predictOpts{sharedFlags: s}
	fs.StringVar(&o.model, "model", "", "model `FILE` written by passgp-fast train (required; a Beam file system path)")
	fs.StringVar(&o.data, "data", "", "binary data `FILE` written by passgp-fast convert (required; a path every worker can open)")
	fs.StringVar(&o.out, "out", "", "output CSV `FILE` (default: standard output)")
	fs.BoolVar(&o.raw, "raw", false, "write the classifiers' uncalibrated q(y=+1|x) (paper eq. 4), as passgp-fast predict --raw")
	fs.IntVar(&o.shardRows, "shard-rows", 0, fmt.Sprintf("rows per shard, a multiple of %d (default: about four shards per worker group, at most %d rows)", score.Align, 16*score.Align))
	fs.Float64Var(&o.maxMemGiB, "max-mem", 16, "memory limit in `GiB` for a model's posteriors")
	return o
}

// predict runs predict with the parsed flags o (and no positional
// arguments), the pipeline run by exec.
func predict(ctx context.Context, o *predictOpts, args []string, exec func(context.Context, *beam.Pipeline) error, stdout, stderr io.Writer) int {
	switch {
	case len(args) > 0:
		return usageErr(stderr, "unexpected argument %q", args[0])
	case o.model == "":
		return usageErr(stderr, "--model FILE is required")
	case o.data == "":
		return usageErr(stderr, "--data FILE is required")
	case !(o.maxMemGiB > 0):
		return usageErr(stderr, "--max-mem must be positive, got %v", o.maxMemGiB)
	case o.shardRows < 0 || o.shardRows%score.Align != 0:
		return usageErr(stderr, "--shard-rows must be a positive multiple of %d, got %d", score.Align, o.shardRows)
	}
	so := score.Options{
		Model: o.model, Data: o.data, Dir: o.dir, ShardRows: o.shardRows, Workers: o.workers,
		ModelOptions: score.ModelOptions{Raw: o.raw, MaxBytes: int64(o.maxMemGiB * (1 << 30))},
		Execute:      exec,
	}
	var err error
	if o.out == "" {
		err = writeCSV(ctx, stdout, so)
	} else {
		err = data.WriteFileAtomic(o.out, func(f *os.File) error { return writeCSV(ctx, f, so) })
	}
	if err != nil {
		fmt.Fprintf(stderr, "passgp-fast-beam: predict: %v\n", err)
		return exitError
	}
	return exitOK
}

func usageErr(stderr io.Writer, format string, a ...any) int {
	fmt.Fprintf(stderr, "passgp-fast-beam: predict: %s\n", fmt.Sprintf(format, a...))
	return exitUsage
}

// writeCSV runs the scoring and writes its results to w shard by shard,
// in passgp-fast predict's format: a header predicted,p_<class>,... and
// per row the predicted class and the probabilities, each the shortest
// decimal that reads back as the same float64.
func writeCSV(ctx context.Context, w io.Writer, o score.Options) error {
	bw := bufio.NewWriter(w)
	header := false
	err := score.RunEach(ctx, o, func(p score.Plan, _ score.Shard, r *score.Rows) error {
		if !header {
			bw.WriteString("predicted")
			for _, c := range p.Outputs {
				bw.WriteString(",p_" + c)
			}
			bw.WriteByte('\n')
			header = true
		}
		n, _ := r.Prob.Dims()
		for i := range n {
			bw.WriteString(p.Outputs[r.Decision[i]])
			for _, v := range r.Prob.RawRowView(i) {
				bw.WriteByte(',')
				bw.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			}
			bw.WriteByte('\n')
		}
		return nil
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}
