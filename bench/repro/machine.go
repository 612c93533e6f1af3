package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// machineInfo describes the machine from /proc (Linux); elsewhere it falls
// back to what the Go runtime knows.
func machineInfo() string {
	model := procField("/proc/cpuinfo", "model name")
	if model == "" {
		model = runtime.GOARCH
	}
	mem := procField("/proc/meminfo", "MemTotal")
	memStr := "unknown memory"
	if kb := parseKB(mem); kb > 0 {
		memStr = fmt.Sprintf("%.1f GiB RAM", float64(kb)/(1<<20))
	}
	mhz := procField("/proc/cpuinfo", "cpu MHz")
	if mhz != "" {
		mhz = ", " + strings.TrimSpace(mhz) + " MHz"
	}
	return fmt.Sprintf("%s%s, %d logical CPUs (nproc), %s, %s/%s, %s; the cores were shared with other work while it ran, so times are noisy",
		model, mhz, runtime.NumCPU(), memStr, runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// procField returns the value of the first "key : value" line of a /proc file.
func procField(path, key string) string {
	fh, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// parseKB parses "123456 kB".
func parseKB(s string) int64 {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "kB"))
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// peakRSSGiB is this process's peak resident set size (VmHWM) in GiB, or
// NaN-free 0 when /proc is unavailable.
func peakRSSGiB() float64 {
	return float64(parseKB(procField("/proc/self/status", "VmHWM"))) / (1 << 20)
}
