package libsvm

import (
	"math"
	"testing"
)

func TestHeldOutError(t *testing.T) {
	for _, c := range []struct {
		out  string
		want float64
	}{
		{"wrote m.pgp (binary, ...)\nheld-out estimate on the 431 training points (each predicted without its own label): error 24.36%, Brier 0.3218, NLP 0.4885, ECE 0.0223\n", 0.2436},
		{"held-out estimate on a random 200000 of the 10000000 training points (each predicted without its own label): error 6.59%, Brier 0.1172, NLP 0.1, ECE 0.01\n", 0.0659},
		{"held-out estimate on the 40600 training points (each predicted without its own label): error 0.06% (26 of 40600), Brier 0.0011, NLP 0.0035, ECE 0.0002\n", 26.0 / 40600},
		{"wrote m.pgp\n", -1},
		{"note: held-out estimate on x: error 5%\n", -1}, // not at a line start
	} {
		if got := HeldOutError(c.out); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("HeldOutError(%q) = %v, want %v", c.out, got, c.want)
		}
	}
}
