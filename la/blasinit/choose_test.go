package blasinit

import "testing"

func TestWantCore(t *testing.T) {
	const dyn = "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64"
	avx512 := features{avx: true, avx2FMA: true, avx512: true}
	avx2 := features{avx: true, avx2FMA: true}
	avx := features{avx: true}
	for _, c := range []struct {
		name   string
		env    map[string]string
		picked string
		config string
		cpu    features
		want   string
	}{
		{"hidden AVX-512 CPU", nil, "Prescott", dyn, avx512, "SkylakeX"},
		{"hidden AVX2 CPU", nil, "Prescott", dyn, avx2, "Haswell"},
		{"hidden AVX CPU", nil, "Core2", dyn, avx, "Sandybridge"},
		{"AVX kernels on AVX2", nil, "Sandybridge", dyn, avx2, "Haswell"},
		{"AVX2 kernels on AVX-512", nil, "Haswell", dyn, avx512, "SkylakeX"},
		{"Zen kernels on AVX-512", nil, "zen", dyn, avx512, "SkylakeX"},
		{"old CPU", nil, "Prescott", dyn, features{}, ""},
		{"matching AVX-512", nil, "Cooperlake", dyn, avx512, ""},
		{"matching AVX2", nil, "Haswell", dyn, avx2, ""},
		{"newer than the CPU", nil, "SkylakeX", dyn, avx2, ""},
		{"unknown core", nil, "NEOVERSEN1", dyn, avx512, ""},
		{"pure Go", nil, "", "", avx512, ""},
		{"single-target build", nil, "Prescott", "OpenBLAS 0.3.21 NO_AFFINITY PRESCOTT MAX_THREADS=64", avx512, ""},
		{"user's choice", map[string]string{CoreEnv: "Prescott"}, "Prescott", dyn, avx512, ""},
		{"empty user choice", map[string]string{CoreEnv: ""}, "Prescott", dyn, avx512, "SkylakeX"},
		{"off", map[string]string{AutoEnv: "0"}, "Prescott", dyn, avx512, ""},
		{"off word", map[string]string{AutoEnv: "Off"}, "Prescott", dyn, avx512, ""},
		{"on", map[string]string{AutoEnv: "1"}, "Prescott", dyn, avx512, "SkylakeX"},
	} {
		lookup := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
		if got := wantCore(lookup, c.picked, c.config, c.cpu); got != c.want {
			t.Errorf("%s: wantCore(%q, %+v) = %q, want %q", c.name, c.picked, c.cpu, got, c.want)
		}
	}
}

// TestLevelCores checks that each core asked for is of its level.
func TestLevelCores(t *testing.T) {
	for lv, core := range levelCore {
		if core == "" {
			continue
		}
		if got, ok := coreLevel[lowerASCII(core)]; !ok || got != lv {
			t.Errorf("levelCore[%d] = %s, of level %d (known %v)", lv, core, got, ok)
		}
	}
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
