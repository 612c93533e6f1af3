//go:build !linux

package bench

// cpuSeconds is unavailable here; the CPU-time metrics are then omitted.
func cpuSeconds() float64 { return 0 }
