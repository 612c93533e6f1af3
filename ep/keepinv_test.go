package ep

import (
	"context"
	"math"
	"testing"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestKeepInvGradient: the gradient of a posterior whose EP run kept its
// last L⁻¹ (Optimize's evaluations) is the gradient computed from the
// factor alone, bit for bit, and uses the kept matrix once; runs that end
// without L⁻¹ (the sequential schedule, too many weak sites) keep none.
func TestKeepInvGradient(t *testing.T) {
	x, y := blobs(150, 9)
	for _, tc := range []struct {
		name string
		k    kernel.Kernel
		o    Options
		kept bool
	}{
		{"parallel", kernel.SE{Var: 4, Len2: 1.5, Jitter: 1e-3}, Options{}, true},
		{"flip", kernel.SE{Var: 4, Len2: 1.5, Jitter: 1e-3}, Options{Flip: 0.05}, true},
		{"sequential", kernel.SE{Var: 4, Len2: 1.5, Jitter: 1e-3}, Options{Schedule: Sequential}, false},
		// A tiny signal variance makes every site weak (τ̃ K_ii < 0.1):
		// the refresh takes the triangular solve, not L⁻¹.
		{"weak sites", kernel.SE{Var: 1e-3, Len2: 1.5, Jitter: 1e-6}, Options{}, false},
	} {
		ref, err := Infer(tc.k, x, y, nil, &tc.o)
		if err != nil {
			t.Fatal(err)
		}
		p, err := inferContext(context.Background(), tc.k, x, y, nil, &tc.o, true)
		if err != nil {
			t.Fatal(err)
		}
		if (p.inv != nil) != tc.kept || ref.inv != nil {
			t.Fatalf("%s: L⁻¹ kept %v, want %v (plain Infer kept %v)", tc.name, p.inv != nil, tc.kept, ref.inv != nil)
		}
		want := ref.GradientTo(nil)
		for round := 0; round < 2; round++ {
			got := p.GradientTo(nil)
			for j := range want {
				if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
					t.Errorf("%s, call %d: ∂/∂log θ_%d = %v, from the factor %v", tc.name, round+1, j, got[j], want[j])
				}
			}
			if p.inv != nil {
				t.Fatalf("%s: the gradient left the kept L⁻¹ in place", tc.name)
			}
		}
	}
}
