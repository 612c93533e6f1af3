package score

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// reader reads a job's fields from the front of b; a read past its end
// sets short and gives zeros.
type reader struct {
	b     []byte
	short bool
}

func (r *reader) take(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.short, r.b = true, nil
		return make([]byte, max(n, 0))
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *reader) u8() byte     { return r.take(1)[0] }
func (r *reader) u32() uint32  { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *reader) u64() uint64  { return binary.LittleEndian.Uint64(r.take(8)) }
func (r *reader) f64() float64 { return math.Float64frombits(r.u64()) }

// floats reads n float64 values; the caller has bounded n by len(r.b).
func (r *reader) floats(n int) []float64 {
	p := r.take(8 * n)
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	return v
}

// decodeJob decodes a job's fields after the magic and version.
func decodeJob(r *reader) (*Job, error) {
	j := &Job{}
	flags := r.u8()
	j.screens, j.pinc = flags&1 != 0, r.f64()
	if flags&^1 != 0 || j.screens && !(j.pinc > 0 && j.pinc <= 1) {
		return nil, fmt.Errorf("flags %#x with p_inc %v", flags, j.pinc)
	}
	nameLen := r.u32()
	if nameLen > jobMaxName {
		return nil, fmt.Errorf("kernel name of %d bytes", nameLen)
	}
	name := string(r.take(int(nameLen)))
	degree, gamma := r.u64(), r.f64()
	nt := r.u32()
	if nt > jobMaxTheta || int(nt)*8 > len(r.b) || degree > 1000 {
		return nil, fmt.Errorf("%d hyperparameters, degree %d", nt, degree)
	}
	theta := r.floats(int(nt))
	m, d := r.u64(), r.u64()
	if r.short {
		return nil, errors.New("truncated header")
	}
	if m < 1 || m > jobMaxRows || d < 1 || d > jobMaxDim || 8*(m*d+2*m+m*(m+1)/2) != uint64(len(r.b)) {
		return nil, fmt.Errorf("%d active inputs of %d features in %d bytes", m, d, len(r.b))
	}
	k, err := kernel.New(name, theta, int(degree), gamma)
	if err != nil {
		return nil, err
	}
	if err := checkKernelDim(k, int(d)); err != nil {
		return nil, err
	}
	j.k = k
	j.xa = mat.NewDense(int(m), int(d), r.floats(int(m*d)))
	s := ep.PredictState{Alpha: r.floats(int(m)), SqrtTau: r.floats(int(m)), L: r.floats(int(m * (m + 1) / 2))}
	if j.post, err = ep.FromPredictState(k, j.xa, s); err != nil {
		return nil, err
	}
	return j, nil
}

// checkKernelDim returns an error when k takes inputs of a fixed number
// of features (the ARD kernels) other than d.
func checkKernelDim(k kernel.Kernel, d int) error {
	var kd int
	switch v := k.(type) {
	case kernel.SEARD:
		kd = len(v.Len2)
	case kernel.SEARDBias:
		kd = len(v.Len2)
	default:
		return nil
	}
	if kd != d {
		return fmt.Errorf("kernel %s of %d features for inputs of %d", k.Name(), kd, d)
	}
	return nil
}
