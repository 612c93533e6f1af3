package beamrun

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// The runs this process drives, by run ID. A runner that executes the
// workers in the driver's process (Prism's loopback mode) gives them
// bundle contexts of its own, which the driver's context does not reach,
// and may go on scheduling bundles after the driver has stopped waiting
// for the job. A worker in the driver's process therefore joins its
// run here: it works under the driver's context too, and finds no run
// once the driver's Execute has returned. Execute waits for the workers
// that joined, so none is left working, or writing shard files, after
// it returns.
var local struct {
	sync.Mutex
	runs map[string]*localRun
}

// localRun is a run's state in the driver's process.
type localRun struct {
	ctx      context.Context
	inFlight sync.WaitGroup
}

// processID tells the driver's process from other worker processes.
var processID = func() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}()

var runCount atomic.Uint64

// ErrRunEnded is a worker's error in the driver's process once its
// run's Execute has returned.
var ErrRunEnded = errors.New("beam: the run has ended (its driver returned)")

// StartRun registers a new run under ctx and returns its ID.
func StartRun(ctx context.Context) string {
	id := fmt.Sprintf("%s-%d", processID, runCount.Add(1))
	local.Lock()
	defer local.Unlock()
	if local.runs == nil {
		local.runs = map[string]*localRun{}
	}
	local.runs[id] = &localRun{ctx: ctx}
	return id
}

// EndRun unregisters run id and waits for its workers in this process.
func EndRun(id string) {
	local.Lock()
	r := local.runs[id]
	delete(local.runs, id)
	local.Unlock()
	if r != nil {
		r.inFlight.Wait()
	}
}

// JoinRun returns the context that a worker of run id works under
// (bundle's, ended also by the driver's when the worker runs in the
// driver's process) and the function to call when it is done. It fails
// with ErrRunEnded for a run of this process that has ended.
func JoinRun(bundle context.Context, id string) (context.Context, func(), error) {
	if !strings.HasPrefix(id, processID+"-") {
		return bundle, func() {}, nil // another process: the runner cancels the job
	}
	local.Lock()
	r := local.runs[id]
	if r != nil {
		r.inFlight.Add(1)
	}
	local.Unlock()
	if r == nil {
		return nil, nil, ErrRunEnded
	}
	ctx, cancel := context.WithCancelCause(bundle)
	stop := context.AfterFunc(r.ctx, func() { cancel(context.Cause(r.ctx)) })
	return ctx, func() {
		stop()
		cancel(nil)
		r.inFlight.Done()
	}, nil
}

// Runs returns the number of runs registered in this process: 0 once
// every Execute has returned.
func Runs() int {
	local.Lock()
	defer local.Unlock()
	return len(local.runs)
}
