package beamrun

import (
	"context"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
)

// Execute builds a pipeline with build, given the new run's ID, and runs
// it with exec (nil: Prism in this process, PrismExecute) as a run of
// this process (StartRun), returning once the workers in this process
// that joined it are done. It returns ctx's cause when ctx has ended,
// else exec's error.
func Execute(ctx context.Context, exec func(context.Context, *beam.Pipeline) error, build func(s beam.Scope, runID string)) error {
	if exec == nil {
		exec = PrismExecute
	}
	id := StartRun(ctx)
	defer EndRun(id)
	p, s := beam.NewPipelineWithRoot()
	build(s, id)
	err := exec(ctx, p)
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return err
}

// prismStart serialises the process's first Prism run: prism.Execute
// starts its job server and sets Beam's --endpoint flag on the first
// run without checking for another that does the same at once.
var prismStart struct {
	sync.Mutex
	done bool
}

// PrismExecute runs p on Beam's Prism runner in this process
// (prism.Execute), which needs beam.Init to have been called. Its first
// run starts a job server in the process and points Beam's --endpoint
// and --environment_type flags (loopback workers) at it, for every
// later Beam run of the process; that first run runs alone, the later
// ones side by side.
func PrismExecute(ctx context.Context, p *beam.Pipeline) error {
	prismStart.Lock()
	if prismStart.done {
		prismStart.Unlock()
	} else {
		defer func() {
			prismStart.done = true
			prismStart.Unlock()
		}()
	}
	_, err := prism.Execute(ctx, p)
	return err
}
