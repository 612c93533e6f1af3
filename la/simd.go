package la

import "github.com/passgp-fast/passgp-fast/la/internal/asm"

// SIMD reports the vector instruction set the Gram kernels use: "avx512",
// "avx2", "neon" or "generic" (noasm build tag or another architecture).
func SIMD() string { return asm.Current().String() }
