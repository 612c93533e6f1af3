package passgp

import "github.com/passgp-fast/passgp-fast/score"

// runner holds what a training run shares between its stages: the
// scoring runner (worker goroutines and their workspaces, score.Runner),
// on whose chunks passgp's own passes over rows (the FITC prediction)
// also run, so that they too do not depend on Threads.
type runner struct{ score.Runner }

// newRunner returns a runner of threads worker goroutines.
func newRunner(threads int) *runner { return &runner{score.Runner{Threads: threads}} }
