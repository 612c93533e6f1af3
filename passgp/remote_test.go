package passgp

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/passgp-fast/passgp-fast/score"
)

// fakeRemote is training rows with an in-process score.Remote that does
// what a pipeline's workers do: it carries the job as bytes, and scores
// the row list in parts of two chunks, each from a multiple of
// score.Chunk, on goroutines of their own.
type fakeRemote struct {
	Rows
	calls, rows atomic.Int64
}

func (f *fakeRemote) ScoreRows(ctx context.Context, job *score.Job, rows []int, y, mean, vr []float64) error {
	f.calls.Add(1)
	f.rows.Add(int64(len(rows)))
	b, err := job.MarshalBinary()
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make([]error, (len(rows)+2*score.Chunk-1)/(2*score.Chunk))
	for p := range errs {
		lo, hi := 2*score.Chunk*p, min(2*score.Chunk*(p+1), len(rows))
		wg.Go(func() {
			j, err := score.UnmarshalJob(b)
			if err == nil {
				var yp []float64
				if y != nil {
					yp = y[lo:hi]
				}
				err = j.Score(ctx, f.Rows, rows[lo:hi], yp, mean[lo:hi], vr[lo:hi])
			}
			errs[p] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestTrainRowsRemote: training whose rows score through a score.Remote
// gives the model that training without one gives, bit for bit (the
// same scores from the same chunks), binary (whose first pass screens
// and whose held-out stage scores more than two chunks) and one-vs-rest
// with the classes side by side (concurrent calls).
func TestTrainRowsRemote(t *testing.T) {
	ctx := context.Background()
	t.Run("binary", func(t *testing.T) {
		x, y := toy(1200, 21)
		o := Options{Sub: 4, Passes: 2, Threads: 2}
		local, err := TrainRows(ctx, DenseRows(x), y, &o)
		if err != nil {
			t.Fatal(err)
		}
		f := &fakeRemote{Rows: DenseRows(x)}
		remote, err := TrainRows(ctx, f, y, &o)
		if err != nil {
			t.Fatal(err)
		}
		sameResult(t, "binary", local, remote)
		// Every batch and the held-out stage.
		if f.calls.Load() < 9 || f.rows.Load() < int64(2*score.Chunk) {
			t.Errorf("%d remote calls scored %d rows: the remote scorer was not used throughout", f.calls.Load(), f.rows.Load())
		}
	})
	t.Run("one-vs-rest", func(t *testing.T) {
		x, labels := blobs(900, 3, 5)
		o := Options{Sub: 3, Passes: 2, Threads: 2}
		o.Multi.ClassWorkers = 3
		local, err := TrainMultiRows(ctx, DenseRows(x), labels, &o)
		if err != nil {
			t.Fatal(err)
		}
		f := &fakeRemote{Rows: DenseRows(x)}
		remote, err := TrainMultiRows(ctx, f, labels, &o)
		if err != nil {
			t.Fatal(err)
		}
		for k := range local.PerClass {
			sameResult(t, "class", local.PerClass[k], remote.PerClass[k])
		}
		if !reflect.DeepEqual(local.Calibration, remote.Calibration) {
			t.Error("multi-class calibrations differ")
		}
		if f.calls.Load() == 0 {
			t.Error("the remote scorer was not used")
		}
	})
}
