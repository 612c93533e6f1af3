//go:build linux

package bench

import "golang.org/x/sys/unix"

// cpuSeconds returns the CPU time of the whole process, all threads
// (OpenBLAS's included), from CLOCK_PROCESS_CPUTIME_ID (nanosecond
// accounting, unlike getrusage's tick-sampled figures).
func cpuSeconds() float64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return float64(ts.Sec) + float64(ts.Nsec)*1e-9
}
