package la

import "testing"

// TestScratchClass checks the pools' classes: the class of a size holds
// it, the class below does not, no capacity is more than a quarter above
// the size, and a slice from GetScratch goes back to a class that serves
// its whole capacity.
func TestScratchClass(t *testing.T) {
	for n := 0; n < 5000; n++ {
		c := scratchClass(n)
		if scratchCap(c) < n || (c > 0 && scratchCap(c-1) >= n) {
			t.Fatalf("n %d: class %d of capacity %d (below: %d)", n, c, scratchCap(c), scratchCap(max(c-1, 0)))
		}
		if n > 4 && float64(scratchCap(c)) > 1.25*float64(n) {
			t.Fatalf("n %d: capacity %d more than a quarter larger", n, scratchCap(c))
		}
	}
	for _, n := range []int{0, 1, 7, 592 * 292, 1 << 24, 3<<20 + 1} {
		b := GetScratch(n)
		if len(*b) != n || cap(*b) != scratchCap(scratchClass(n)) {
			t.Fatalf("GetScratch(%d): len %d cap %d", n, len(*b), cap(*b))
		}
		PutScratch(b)
		if c := scratchClass(cap(*b)); scratchCap(c) != cap(*b) {
			t.Fatalf("GetScratch(%d): capacity %d is not a class's", n, cap(*b))
		}
	}
}
