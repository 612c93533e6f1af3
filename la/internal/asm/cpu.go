// Package asm holds the vector kernels of la's Gram matrices: elementwise
// maps (fused add/clamp/exp, add/clamp, integer power) and a register-tiled
// squared-distance kernel, in Go assembly for amd64 (AVX-512F, AVX2+FMA,
// chosen at run time with golang.org/x/sys/cpu) and arm64 (NEON), with
// pure-Go versions used by the noasm build tag, on other architectures, and
// for the tails shorter than one vector. It is a separate package because
// la uses cgo, and a cgo package cannot contain Go assembly.
package asm

import "fmt"

// Path names an implementation of the Gram kernels' vector code: the
// elementwise maps applied after the distance/inner-product stage and the
// direct squared-distance tile kernel.
type Path int

const (
	Generic Path = iota // pure Go (noasm tag, other architectures)
	AVX2                // amd64 AVX2 + FMA
	AVX512              // amd64 AVX-512F
	NEON                // arm64 Advanced SIMD
)

func (p Path) String() string {
	switch p {
	case Generic:
		return "generic"
	case AVX2:
		return "avx2"
	case AVX512:
		return "avx512"
	case NEON:
		return "neon"
	}
	return fmt.Sprintf("Path(%d)", int(p))
}

// cur is the path in use: the best one this CPU supports, chosen once at
// start-up (bestPath is per architecture, see cpu_*.go). Tests switch it
// with SetPath to cover every path the machine can run.
var cur = bestPath()

// Current returns the path in use.
func Current() Path { return cur }

// SetPath selects p and returns the previous path. It panics if the CPU
// cannot run p. Not safe for use concurrently with the Gram kernels; for
// tests and benchmarks only.
func SetPath(p Path) Path {
	ok := false
	for _, q := range Supported() {
		ok = ok || q == p
	}
	if !ok {
		panic("asm: unsupported SIMD path " + p.String())
	}
	old := cur
	cur = p
	return old
}
