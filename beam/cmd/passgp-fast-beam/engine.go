package main

import (
	"context"
	"flag"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/beam/train"
	"github.com/passgp-fast/passgp-fast/internal/cli"
)

// sharedFlags are the flags of this program's pipelines, predict's and
// train --engine beam's. For train they live in the process's flag set
// with Beam's, so that runCLI hands them to Beam's parse rather than to
// passgp-fast's train.
type sharedFlags struct {
	workers int
	dir     string
}

// registerShared adds the pipelines' flags to fs.
func registerShared(fs *flag.FlagSet) *sharedFlags {
	s := &sharedFlags{}
	fs.IntVar(&s.workers, "workers", 0, "groups of shards (predict) or parts (train --engine beam) scored side by side (default: GOMAXPROCS)")
	fs.StringVar(&s.dir, "shard-dir", "", "`DIR` for the workers' shard or part files, which a remote runner's workers must be able to write and this process read (default: a temporary directory here, for Prism)")
	return s
}

// beamEngine is train --engine beam: FitBinary's scoring of every batch
// and of the held-out stage runs as Beam pipelines over the binary data
// file (package train); EP on the active set stays in this process. With
// --runner the pipelines run there (beamx.Run); without, on Prism in
// this process.
func beamEngine(fs *flag.FlagSet, s *sharedFlags) cli.Engine {
	return func(ctx context.Context, dataPath string, threads int) ([]passgpfast.Option, func() error, error) {
		var exec func(context.Context, *beam.Pipeline) error // nil: Prism here
		if flagSet(fs, "runner") {
			exec = beamx.Run
		}
		r, err := train.New(ctx, train.Options{Data: dataPath, Workers: s.workers, Dir: s.dir, Execute: exec})
		if err != nil {
			return nil, nil, err
		}
		return []passgpfast.Option{passgpfast.WithRemoteScorer(r)}, r.Close, nil
	}
}

// flagSet reports whether the flag name was set on fs's command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
