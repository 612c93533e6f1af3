package la

import (
	"strings"
	"testing"
)

func TestCoreAdvice(t *testing.T) {
	for _, c := range []struct {
		core         string
		avx2, avx512 bool
		want         string // "" or the suggested OPENBLAS_CORETYPE
	}{
		{"Prescott", true, true, "SkylakeX"}, // a VM hiding its model (docs/performance.md)
		{"Prescott", true, false, "Haswell"},
		{"Sandybridge", true, false, "Haswell"},
		{"Prescott", false, false, ""}, // an old CPU: nothing faster exists
		{"Haswell", true, true, ""},    // AVX2 kernels: no several-fold loss
		{"Zen", true, true, ""},
		{"Cooperlake", true, true, ""},
		{"SkylakeX", true, true, ""},
		{"NEOVERSEN1", false, false, ""}, // not x86
		{"", true, true, ""},             // pure-Go backend
		{"Unknown", true, true, ""},
	} {
		got := coreAdvice(c.core, c.avx2, c.avx512)
		if c.want == "" {
			if got != "" {
				t.Errorf("%s avx2=%v avx512=%v: got %q, want no warning", c.core, c.avx2, c.avx512, got)
			}
			continue
		}
		if !strings.Contains(got, "OPENBLAS_CORETYPE="+c.want) || !strings.Contains(got, c.core) {
			t.Errorf("%s avx2=%v avx512=%v: got %q, want OPENBLAS_CORETYPE=%s", c.core, c.avx2, c.avx512, got, c.want)
		}
	}
}

func TestBLASCore(t *testing.T) {
	core := BLASCore()
	if (Backend == "openblas") != (core != "") {
		t.Errorf("backend %s reports core %q", Backend, core)
	}
	t.Setenv("OPENBLAS_CORETYPE", "Prescott")
	if w := CheckBLASCore(); w != "" {
		t.Errorf("with OPENBLAS_CORETYPE set: %q, want no warning (the user's choice)", w)
	}
}
