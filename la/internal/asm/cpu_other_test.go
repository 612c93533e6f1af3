//go:build !linux

package asm

// cpuSeconds is unavailable here; the CPU-time metrics are omitted.
func cpuSeconds() float64 { return 0 }
