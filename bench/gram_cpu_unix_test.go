//go:build unix

package bench

import "syscall"

// cpuSeconds returns the CPU time (user + system) of the whole process,
// all threads (OpenBLAS's included).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)*1e-6
}
