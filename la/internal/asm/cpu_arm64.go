//go:build !noasm

package asm

import "golang.org/x/sys/cpu"

// bestPath: Advanced SIMD is mandatory on ARMv8-A; the check guards odd
// environments that report no ASIMD.
func bestPath() Path {
	if cpu.ARM64.HasASIMD {
		return NEON
	}
	return Generic
}

func Supported() []Path {
	if cpu.ARM64.HasASIMD {
		return []Path{Generic, NEON}
	}
	return []Path{Generic}
}
