package model

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// enc appends little-endian values to a byte slice.
type enc struct{ b []byte }

func (e *enc) u32(v uint32) { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *enc) u64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *enc) i64(v int64)  { e.u64(uint64(v)) }
func (e *enc) f64(v float64) {
	e.u64(math.Float64bits(v))
}
func (e *enc) bytes(p []byte) {
	e.u64(uint64(len(p)))
	e.b = append(e.b, p...)
}
func (e *enc) str(s string) { e.bytes([]byte(s)) }

// floats writes the values without a length (the reader knows it).
func (e *enc) floats(v []float64) {
	for _, x := range v {
		e.f64(x)
	}
}

// floatSlice writes a length-prefixed slice.
func (e *enc) floatSlice(v []float64) {
	e.u64(uint64(len(v)))
	e.floats(v)
}

// dec reads what enc wrote. The first error sticks: later reads return
// zero values, so decoders check d.err once at the end of a record.
// Lengths are checked against the bytes that remain before anything is
// allocated, so a corrupted length cannot cause a huge allocation.
type dec struct {
	b   []byte
	off int
	err error
}

var errShort = errors.New("payload ends early")

func (d *dec) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w at byte %d: %s", ErrPayload, d.off, fmt.Sprintf(format, args...))
	}
}

func (d *dec) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b)-d.off {
		d.err = fmt.Errorf("%w at byte %d: %w (need %d more bytes, have %d)", ErrPayload, d.off, errShort, n, len(d.b)-d.off)
		return nil
	}
	p := d.b[d.off : d.off+n]
	d.off += n
	return p
}

func (d *dec) u32() uint32 {
	p := d.take(4)
	if p == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(p)
}

func (d *dec) u64() uint64 {
	p := d.take(8)
	if p == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(p)
}

func (d *dec) i64() int64     { return int64(d.u64()) }
func (d *dec) f64() float64   { return math.Float64frombits(d.u64()) }
func (d *dec) remaining() int { return len(d.b) - d.off }

// count reads a length and checks that elem*length bytes can follow.
func (d *dec) count(elem int, what string) int {
	n := d.u64()
	if d.err != nil {
		return 0
	}
	if elem > 0 && n > uint64(d.remaining()/elem) {
		d.fail("%s length %d exceeds the remaining %d bytes", what, n, d.remaining())
		return 0
	}
	if elem == 0 && n > 1<<20 {
		d.fail("%s length %d is implausible", what, n)
		return 0
	}
	return int(n)
}

func (d *dec) bytes(what string) []byte {
	n := d.count(1, what)
	p := d.take(n)
	if p == nil {
		return nil
	}
	return append([]byte(nil), p...)
}

func (d *dec) str(what string) string { return string(d.bytes(what)) }

// floats reads n values (n already validated or small).
func (d *dec) floats(n int) []float64 {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > d.remaining()/8 {
		d.fail("%d values exceed the remaining %d bytes", n, d.remaining())
		return nil
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = d.f64()
	}
	return v
}

func (d *dec) floatSlice(what string) []float64 {
	return d.floats(d.count(8, what))
}
