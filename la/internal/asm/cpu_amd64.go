//go:build !noasm

package asm

import "golang.org/x/sys/cpu"

// bestPath prefers AVX-512F, then AVX2 with FMA (both need OS support of the
// wider registers, which x/sys/cpu checks through XGETBV).
func bestPath() Path {
	switch {
	case cpu.X86.HasAVX512F:
		return AVX512
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		return AVX2
	}
	return Generic
}

func Supported() []Path {
	p := []Path{Generic}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		p = append(p, AVX2)
	}
	if cpu.X86.HasAVX512F {
		p = append(p, AVX512)
	}
	return p
}
