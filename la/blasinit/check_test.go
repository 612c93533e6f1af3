package blasinit

import (
	"strings"
	"testing"
)

// TestCheck runs Check on the kernels this process loaded (whatever
// OPENBLAS_CORETYPE and OPENBLAS_NUM_THREADS say), and with a perturbed
// DGEMM result, which it must reject.
func TestCheck(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatalf("Check on the loaded kernels: %v", err)
	}
	corrupt = true
	defer func() { corrupt = false }()
	if err := Check(); err == nil || !strings.Contains(err.Error(), "DGEMM") {
		t.Errorf("Check with a perturbed DGEMM: %v, want a DGEMM error", err)
	}
}

// BenchmarkCheck times Check, which a restarted program runs once.
func BenchmarkCheck(b *testing.B) {
	for b.Loop() {
		if err := Check(); err != nil {
			b.Fatal(err)
		}
	}
}
