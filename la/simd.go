package la

import "github.com/passgp-fast/passgp-fast/la/internal/asm"

// SIMD reports the vector instruction set the Gram kernels use: "avx512",
// "avx2", "neon" or "generic" (noasm build tag or another architecture).
func SIMD() string { return asm.Current().String() }

// SIMDPaths lists the instruction sets this CPU and build can use, in the
// names SIMD returns.
func SIMDPaths() []string {
	var s []string
	for _, p := range asm.Supported() {
		s = append(s, p.String())
	}
	return s
}

// SetSIMD selects the instruction set of the Gram kernels by name (one of
// SIMDPaths) and returns the previous one; it panics on an unsupported
// name. The default is the fastest available. For benchmarks and tests;
// it must not be called concurrently with the Gram kernels.
func SetSIMD(name string) string {
	for _, p := range asm.Supported() {
		if p.String() == name {
			return asm.SetPath(p).String()
		}
	}
	panic("la: unsupported SIMD path " + name)
}
