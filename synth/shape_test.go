package synth

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestShape: every kind labels its points by the side of its curve, with
// about half of them positive; flipped labels occur at the rate Flip
// (20,000 rows, 4 SE); the rows depend only on the seed; bad shapes are
// refused.
func TestShape(t *testing.T) {
	const n = 20000
	for _, kind := range []string{"xor", "circle", "parabola"} {
		s := Shape{Kind: kind, D: 5, Flip: 0.1}
		g, err := NewShapeGenerator(s, 7)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, 5)
		var pos, flips int
		for range n {
			c, o := g.Next(x)
			if want := s.f()(x[0], x[1]) > 0; (c == 1) != want {
				t.Fatalf("%s: class %d at %v", kind, c, x[:2])
			}
			pos += c
			if o != c {
				flips++
			}
		}
		if p := float64(pos) / n; kind != "parabola" && math.Abs(p-0.5) > 4*0.5/math.Sqrt(n) {
			t.Errorf("%s: positive share %v, want about 1/2", kind, p)
		}
		if r := float64(flips) / n; math.Abs(r-0.1) > 4*0.3/math.Sqrt(n) {
			t.Errorf("%s: flip rate %v, want 0.1", kind, r)
		}
		var a, b bytes.Buffer
		if err := WriteShapeLIBSVM(&a, s, 100, 3); err != nil {
			t.Fatal(err)
		}
		if err := WriteShapeLIBSVM(&b, s, 100, 3); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() || strings.Count(a.String(), "\n") != 100 || strings.Count(strings.SplitN(a.String(), "\n", 2)[0], ":") != 5 {
			t.Errorf("%s: rows not deterministic or malformed:\n%.200s", kind, a.String())
		}
	}
	for _, bad := range []Shape{{Kind: "spiral", D: 3}, {Kind: "xor", D: 1}, {Kind: "xor", D: 3, Flip: 0.5}} {
		if _, err := NewShapeGenerator(bad, 1); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
