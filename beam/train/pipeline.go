package train

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/beam/internal/beamrun"
	"github.com/passgp-fast/passgp-fast/data"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*Part)(nil)).Elem())
	register.DoFn4x1[context.Context, Part, []byte, func(int), error](&scoreFn{})
	register.Emitter1[int]()
}

// Job is what every worker of a call needs besides its part and the
// task's bytes: where the rows are and where the scores go.
type Job struct {
	// RunID names the call's part files (and, in the driver's process,
	// the run: beamrun.StartRun).
	RunID string
	// Data is the binary data file: a path every worker can open.
	Data string
	// Dir is the directory (a Beam file system path) of the part files.
	Dir string
}

// PartFile is the path of part i's scores.
func (j *Job) PartFile(i int) string {
	return fmt.Sprintf("%s/%s-part-%06d.bin", j.Dir, j.RunID, i)
}

// partStarts, when not nil, is called by a worker in the driver's
// process as it starts a part, with the context it scores under: the
// cancellation tests' hook.
var partStarts func(ctx context.Context, p Part)

// scoreFn scores a part and writes its part file.
type scoreFn struct {
	Job Job
	// task is decoded from the side input on first use (every element
	// of a call sees the same task); src is the data file, opened on
	// first use in a bundle and closed at its end.
	task *passgpfast.Task
	src  *data.BinarySource
}

// ProcessElement scores part p with the task whose bytes are task,
// writes the part file and emits p's index (beamrun.Sink).
func (f *scoreFn) ProcessElement(ctx context.Context, p Part, task []byte, emit func(int)) error {
	ctx, done, err := beamrun.JoinRun(ctx, f.Job.RunID)
	if err != nil {
		return err
	}
	defer done()
	if partStarts != nil {
		partStarts(ctx, p)
	}
	if f.task == nil {
		if f.task, err = passgpfast.DecodeTask(task); err != nil {
			return err
		}
	}
	if f.src == nil {
		if f.src, err = data.OpenBinary(ctx, f.Job.Data, data.BinaryOptions{}); err != nil {
			return err
		}
	}
	n := len(p.Rows)
	s := scores{mean: make([]float64, n), vr: make([]float64, n)}
	if err := f.task.Score(ctx, f.src, p.Rows, p.Y, s.mean, s.vr); err != nil {
		return err
	}
	if err := beamrun.WriteFile(ctx, f.Job.PartFile(p.Index), encodePart(p, s)); err != nil {
		return err
	}
	emit(p.Index)
	return nil
}

// FinishBundle closes the data file that the bundle opened. (Beam asks
// a DoFn with side inputs and emitters to take them here too.)
func (f *scoreFn) FinishBundle(_ context.Context, _ []byte, _ func(int)) error {
	if f.src == nil {
		return nil
	}
	err := f.src.Close()
	f.src = nil
	return err
}

// Build adds to s the scoring of parts with the task whose bytes are
// task, each part's scores to j.PartFile(part.Index). The parts are
// dealt into workers groups (beamrun.Groups), scored side by side; the
// task reaches the workers as a side input.
func Build(s beam.Scope, task []byte, parts []Part, workers int, j Job) {
	s = s.Scope("passgp-fast.train")
	t := beam.Create(s, task)
	for w, group := range beamrun.Groups(parts, workers) {
		g := s.Scope(fmt.Sprintf("group%d", w))
		in := beam.Reshuffle(g, beam.CreateList(g, group))
		beamrun.Sink(g, beam.ParDo(g, &scoreFn{Job: j}, in, beam.SideInput{Input: t}))
	}
}
