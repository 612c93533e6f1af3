package main

import (
	"os"
	"runtime/debug"
)

// memoryLimit is the soft limit of the Go heap (the full run is
// bounded at 16 GiB). The invariance stage on MNIST trains on active sets of up
// to 15000 points, whose EP run holds three such n×n float64 matrices
// (K, L and a workspace: 1.8 GB each); with the default GOGC the heap
// could grow to twice its live size before a collection. Since trained
// posteriors keep only L and the second-stage models are released after
// predicting (augmentMulti), the full MNIST run peaks at 12.0 GiB RSS
// (run of 2026-11-21 08:12-10:05; 19 GiB before those changes).
const memoryLimit = 14 << 30

// limitMemory sets the soft memory limit unless GOMEMLIMIT is set.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
