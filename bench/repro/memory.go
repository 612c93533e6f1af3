package main

import (
	"os"
	"runtime/debug"
)

// memoryLimit is the soft limit of the Go heap (issue 5 bounds the full
// run at 16 GiB). The invariance stage on MNIST holds a few matrices of
// up to 15000² float64 (1.8 GB each); with the default GOGC the heap could
// grow to twice its live size before a collection, beyond the machine's
// memory. The limit is soft: the full MNIST run of 2026-11-21 still peaked
// at 19 GiB RSS, because its live set at |A| ≈ 14700 exceeds it.
const memoryLimit = 14 << 30

// limitMemory sets the soft memory limit unless GOMEMLIMIT is set.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
