package passgpfast

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/passgp"
	"github.com/passgp-fast/passgp-fast/score"
)

// A task's bytes (what a RemoteScorer gets), little-endian:
//
//	magic "PGTASK" and the version byte 1
//	uint32 D, the features of the input scaling (0: none)
//	D multipliers and D offsets (data.Scaling)
//	uint64 length of the job, the job (score.Job.MarshalBinary)
//	uint32 CRC-32C of everything before it
const (
	taskMagic   = "PGTASK"
	taskVersion = 1
)

var taskCRC = crc32.MakeTable(crc32.Castagnoli)

// ErrTask marks bytes that are not a scoring task of this version.
var ErrTask = errors.New("passgpfast: not a scoring task")

// Task is a scoring task decoded (DecodeTask): the input scaling that
// FitBinary reads the rows with, and the scoring job (score.Job).
type Task struct {
	scaling *data.Scaling
	job     *score.Job
}

// encodeTask returns the bytes of the task of scoring with job the rows
// of a data file read with scaling s (nil: none).
func encodeTask(s *data.Scaling, job *score.Job) ([]byte, error) {
	jb, err := job.MarshalBinary()
	if err != nil {
		return nil, err
	}
	var d int
	if s != nil {
		d = len(s.Mul)
	}
	b := make([]byte, 0, len(taskMagic)+1+4+16*d+8+len(jb)+4)
	b = append(b, taskMagic...)
	b = append(b, taskVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(d))
	if s != nil {
		for _, v := range append(append([]float64(nil), s.Mul...), s.Add...) {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(len(jb)))
	b = append(b, jb...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, taskCRC)), nil
}

// DecodeTask decodes a task's bytes (what a RemoteScorer gets). Bytes
// that are torn, altered or not a task of this version give an error
// wrapping ErrTask, or score.ErrJob for its job.
func DecodeTask(b []byte) (*Task, error) {
	head := len(taskMagic) + 1 + 4
	if len(b) < head+12 || string(b[:len(taskMagic)]) != taskMagic || b[len(taskMagic)] != taskVersion {
		return nil, fmt.Errorf("%w: %d bytes, not starting %q and version %d", ErrTask, len(b), taskMagic, taskVersion)
	}
	if binary.LittleEndian.Uint32(b[len(b)-4:]) != crc32.Checksum(b[:len(b)-4], taskCRC) {
		return nil, fmt.Errorf("%w: checksum mismatch (%d bytes: torn or altered)", ErrTask, len(b))
	}
	d := uint64(binary.LittleEndian.Uint32(b[head-4:]))
	rest := b[head : len(b)-4]
	if 16*d+8 > uint64(len(rest)) {
		return nil, fmt.Errorf("%w: a scaling of %d features in %d bytes", ErrTask, d, len(rest))
	}
	t := &Task{}
	if d > 0 {
		v := make([]float64, 2*d)
		for i := range v {
			v[i] = math.Float64frombits(binary.LittleEndian.Uint64(rest[8*i:]))
		}
		t.scaling = &data.Scaling{Mul: v[:d], Add: v[d:]}
	}
	rest = rest[16*d:]
	if n := binary.LittleEndian.Uint64(rest); n != uint64(len(rest)-8) {
		return nil, fmt.Errorf("%w: a job of %d bytes in %d", ErrTask, n, len(rest)-8)
	}
	var err error
	if t.job, err = score.UnmarshalJob(rest[8:]); err != nil {
		return nil, err
	}
	if d > 0 && int(d) != t.job.Dim() {
		return nil, fmt.Errorf("%w: a scaling of %d features for a job of %d", ErrTask, d, t.job.Dim())
	}
	return t, nil
}

// ScoreTask decodes task (DecodeTask) and scores with it (Task.Score):
// a RemoteScorer's worker function.
func ScoreTask(ctx context.Context, task []byte, src *data.BinarySource, rows []int, y, mean, vr []float64) error {
	t, err := DecodeTask(task)
	if err != nil {
		return err
	}
	return t.Score(ctx, src, rows, y, mean, vr)
}

// Screens reports whether the task screens: Score then reads the labels.
func (t *Task) Screens() bool { return t.job.Screens() }

// Score sets mean[k] and vr[k] to the scores of row rows[k] of src, the binary data file that
// FitBinary trains on, read with the task's scaling (score.Job.Score;
// y[k], the row's ±1 label, is read when the task screens). It reads
// only the rows listed, in chunks of score.Chunk, and holds
// no dense copy of src. Errors name src; it returns ctx's error within
// one chunk of ctx ending. It is safe for concurrent use.
func (t *Task) Score(ctx context.Context, src *data.BinarySource, rows []int, y, mean, vr []float64) error {
	if src.Dim() != t.job.Dim() {
		return fmt.Errorf("%s: %d features, but the task scores %d", src.Name(), src.Dim(), t.job.Dim())
	}
	var x passgp.Rows = score.ReaderRows(src)
	if t.scaling != nil {
		x = &scaledRows{Rows: x, s: t.scaling, name: src.Name()}
	}
	err := t.job.Score(ctx, x, rows, y, mean, vr)
	if err != nil && ctx.Err() == nil && !strings.Contains(err.Error(), src.Name()) {
		return fmt.Errorf("%s: %w", src.Name(), err)
	}
	return err
}
