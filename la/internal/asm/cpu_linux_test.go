//go:build linux

package asm

import "golang.org/x/sys/unix"

// cpuSeconds is the process CPU time (CLOCK_PROCESS_CPUTIME_ID), which the
// microbenchmarks report next to wall time because the project machine is
// shared and wall times swing by factors of several.
func cpuSeconds() float64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return float64(ts.Sec) + float64(ts.Nsec)*1e-9
}
