package la

import (
	"errors"
	"testing"
	"time"
)

// TestProbe: the probe's calls return (a generous timeout: the machine
// may be loaded; a stuck BLAS never returns at all).
func TestProbe(t *testing.T) {
	if err := Probe(time.Minute); err != nil {
		t.Fatal(err)
	}
}

// TestProbeStuck: calls that never return become ErrBLASStuck.
func TestProbeStuck(t *testing.T) {
	old := probeCalls
	defer func() { probeCalls = old }()
	block := make(chan struct{})
	defer close(block)
	probeCalls = func() error { <-block; return nil }
	if err := Probe(10 * time.Millisecond); !errors.Is(err, ErrBLASStuck) {
		t.Fatalf("err = %v, want ErrBLASStuck", err)
	}
}
