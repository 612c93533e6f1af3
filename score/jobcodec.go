package score

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// A scoring job's bytes (Job.MarshalBinary), little-endian:
//
//	magic "PGSCJOB" and the version byte 2
//	uint8 flags (1: screens), float64 p_inc
//	uint32 name length, the kernel's name, uint64 degree, float64 gamma
//	uint32 number of θ values, the values
//	uint64 M (active inputs), D (features)
//	M·D active inputs row by row, M weights b, M values of S^½,
//	M(M+1)/2 entries of L's lower triangle row by row (ep.PredictState)
//	uint32 CRC-32C of everything before it
//
// The floats are their bits, so a decoded job scores bit for bit as the
// encoded one; the checksum catches bytes torn or altered on the way.
const (
	jobMagic   = "PGSCJOB"
	jobVersion = 2
	// jobMaxName, jobMaxTheta, jobMaxRows and jobMaxDim bound what a
	// header may declare before the length check, so that foreign bytes
	// cannot make the decoder allocate: far above any kernel name, ARD
	// θ, active set (MaxActive's O(M²) memory) or input dimension that
	// training takes.
	jobMaxName  = 64
	jobMaxTheta = 1 << 20
	jobMaxRows  = 1 << 20
	jobMaxDim   = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrJob marks bytes that are not a scoring job of this version.
var ErrJob = errors.New("score: not a scoring job")

// MarshalBinary returns the job's bytes, which UnmarshalJob decodes.
func (j *Job) MarshalBinary() ([]byte, error) {
	m, d := j.xa.Dims()
	s := j.post.PredictState()
	theta := j.k.Params()
	var degree int
	var gamma float64
	if p, ok := j.k.(kernel.Poly); ok {
		degree, gamma = p.Degree, p.Gamma
	}
	b := make([]byte, 0, 64+len(j.k.Name())+8*(len(theta)+m*d+2*m+len(s.L)))
	b = append(b, jobMagic...)
	b = append(b, jobVersion, j.flags())
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(j.pinc))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(j.k.Name())))
	b = append(b, j.k.Name()...)
	b = binary.LittleEndian.AppendUint64(b, uint64(degree))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(gamma))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(theta)))
	b = appendFloats(b, theta)
	b = binary.LittleEndian.AppendUint64(b, uint64(m))
	b = binary.LittleEndian.AppendUint64(b, uint64(d))
	for i := range m {
		b = appendFloats(b, j.xa.RawRowView(i))
	}
	b = appendFloats(appendFloats(appendFloats(b, s.Alpha), s.SqrtTau), s.L)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// flags returns the job's flag byte.
func (j *Job) flags() byte {
	var f byte
	if j.screens {
		f |= 1
	}
	return f
}

func appendFloats(b []byte, v []float64) []byte {
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

// UnmarshalJob decodes a job's bytes (Job.MarshalBinary). Bytes that
// are torn, altered or not a job of this version give an error wrapping
// ErrJob that says what is wrong.
func UnmarshalJob(b []byte) (*Job, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrJob, fmt.Sprintf(format, a...))
	}
	if len(b) < len(jobMagic)+5 || string(b[:len(jobMagic)]) != jobMagic {
		return nil, bad("%d bytes, not starting %q", len(b), jobMagic)
	}
	if v := b[len(jobMagic)]; v != jobVersion {
		return nil, bad("version %d, want %d", v, jobVersion)
	}
	body := b[:len(b)-4]
	if binary.LittleEndian.Uint32(b[len(b)-4:]) != crc32.Checksum(body, castagnoli) {
		return nil, bad("checksum mismatch (%d bytes: torn or altered)", len(b))
	}
	r := &reader{b: body[len(jobMagic)+1:]}
	j, err := decodeJob(r)
	if err != nil {
		return nil, bad("%v", err)
	}
	return j, nil
}
