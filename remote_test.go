package passgpfast

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/score"
	"github.com/passgp-fast/passgp-fast/synth"
)

// taskScorer is an in-process RemoteScorer: ScoreTask on the data file
// src, in parts of score.Chunk rows, as a pipeline's workers would.
type taskScorer struct {
	src   *data.BinarySource
	calls atomic.Int64
}

func (s *taskScorer) Score(ctx context.Context, task []byte, rows []int, y, mean, vr []float64) error {
	s.calls.Add(1)
	for lo := 0; lo < len(rows); lo += score.Chunk {
		hi := min(lo+score.Chunk, len(rows))
		var yp []float64
		if y != nil {
			yp = y[lo:hi]
		}
		if err := ScoreTask(ctx, task, s.src, rows[lo:hi], yp, mean[lo:hi], vr[lo:hi]); err != nil {
			return err
		}
	}
	return nil
}

// modelBytes returns c's model file with the training times zeroed, the
// one part of it that two runs of the same training do not share.
func modelBytes(t *testing.T, c *Classifier) []byte {
	t.Helper()
	for i := range c.Model().Elapsed {
		c.Model().Elapsed[i] = 0
	}
	var b bytes.Buffer
	if err := c.Save(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestFitBinaryRemote: FitBinary scoring through a RemoteScorer that
// runs ScoreTask gives the model file of FitBinary without one, byte for
// byte (the same scores from the same chunks), for a binary and a
// three-class task with the inputs scaled.
func TestFitBinaryRemote(t *testing.T) {
	ctx := context.Background()
	for _, classes := range []int{2, 3} {
		ds, err := synth.Dataset(synth.Task{Classes: classes, D: 4, Flip: 0.05}, 700, 7)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "train.pgd")
		if err := data.WriteBinary(ctx, path, data.NewMemSource(ds), data.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		src, err := data.OpenBinary(ctx, path, data.BinaryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		opts := []Option{WithThreads(1), WithSchedule(50, 3, 2), WithScale("standard")}
		local, err := FitBinary(ctx, src, opts...)
		if err != nil {
			t.Fatal(err)
		}
		s := &taskScorer{src: src}
		remote, err := FitBinary(ctx, src, append(opts, WithRemoteScorer(s))...)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(modelBytes(t, local), modelBytes(t, remote)) {
			t.Errorf("%d classes: the model differs from FitBinary's without a remote scorer", classes)
		}
		if s.calls.Load() == 0 {
			t.Errorf("%d classes: the remote scorer was not called", classes)
		}
	}
}

// TestDecodeTaskErrors: torn, altered and foreign bytes are refused.
func TestDecodeTaskErrors(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("PGTASK\x01 and then nothing that fits"), []byte("PGSCJOB\x01")} {
		if _, err := DecodeTask(b); !errors.Is(err, ErrTask) {
			t.Errorf("%q: error %v, want %v", b, err, ErrTask)
		}
	}
}
