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

// TestKeepWarm: on hard points, whose EP fixed point has a log Z_EP below
// zero sites' (n log ½), a run warm-started from the converged sites
// starts from zero sites by default and from the warm ones with KeepWarm,
// which then needs its minimum of sweeps and reaches the same fixed point.
func TestKeepWarm(t *testing.T) {
	x, y := blobs(120, 11)
	for i := range y {
		if i%3 == 0 {
			y[i] = -y[i] // a third of the labels flipped
		}
	}
	k := kernel.SE{Var: 4, Len2: 1.5, Jitter: 1e-3}
	p, err := Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	zero := float64(len(y)) * math.Log(0.5)
	if !(p.LogZ < zero) {
		t.Fatalf("log Z_EP %v is not below zero sites' %v: the test needs harder points", p.LogZ, zero)
	}
	plain, err := Infer(k, x, y, &p.Sites, nil)
	if err != nil {
		t.Fatal(err)
	}
	warm, err := Infer(k, x, y, &p.Sites, &Options{KeepWarm: true})
	if err != nil {
		t.Fatal(err)
	}
	if warm.Sweeps != DefaultMinSweeps || !(plain.Sweeps > warm.Sweeps) {
		t.Errorf("sweeps from the converged sites: %d with KeepWarm, %d without", warm.Sweeps, plain.Sweeps)
	}
	if math.Abs(warm.LogZ-p.LogZ) > 1e-4 || math.Abs(plain.LogZ-p.LogZ) > 1e-4 {
		t.Errorf("log Z_EP %v with KeepWarm, %v without, %v converged", warm.LogZ, plain.LogZ, p.LogZ)
	}
}
