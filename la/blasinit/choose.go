package blasinit

import (
	"strings"

	"golang.org/x/sys/cpu"
)

// features is what the CPU (and the operating system, which must save
// the wider registers) supports, as golang.org/x/sys/cpu reports it.
type features struct {
	avx, avx2FMA, avx512 bool
}

// cpuFeatures returns this CPU's features. avx512 is the subsets F, BW,
// CD, DQ and VL, which OpenBLAS's SkylakeX kernels use.
func cpuFeatures() features {
	x := cpu.X86
	return features{
		avx:     x.HasAVX,
		avx2FMA: x.HasAVX2 && x.HasFMA,
		avx512:  x.HasAVX512F && x.HasAVX512BW && x.HasAVX512CD && x.HasAVX512DQ && x.HasAVX512VL,
	}
}

// Instruction-set levels of OpenBLAS's x86 kernels.
const (
	levelSSE = iota
	levelAVX
	levelAVX2
	levelAVX512
)

// level is the newest level f supports.
func (f features) level() int {
	switch {
	case f.avx512:
		return levelAVX512
	case f.avx2FMA:
		return levelAVX2
	case f.avx:
		return levelAVX
	}
	return levelSSE
}

// coreLevel gives the level of each x86 core name of OpenBLAS 0.3.21's
// DYNAMIC_ARCH builds (driver/others/dynamic.c, lower case) and of the
// newer SapphireRapids. Piledriver and Steamroller have FMA but no AVX2.
var coreLevel = map[string]int{
	"katmai": levelSSE, "coppermine": levelSSE, "northwood": levelSSE, "prescott": levelSSE,
	"banias": levelSSE, "atom": levelSSE, "core2": levelSSE, "penryn": levelSSE,
	"dunnington": levelSSE, "nehalem": levelSSE, "athlon": levelSSE, "opteron": levelSSE,
	"opteron_sse3": levelSSE, "barcelona": levelSSE, "nano": levelSSE, "bobcat": levelSSE,
	"sandybridge": levelAVX, "bulldozer": levelAVX, "piledriver": levelAVX, "steamroller": levelAVX,
	"haswell": levelAVX2, "excavator": levelAVX2, "zen": levelAVX2,
	"skylakex": levelAVX512, "cooperlake": levelAVX512, "sapphirerapids": levelAVX512,
}

// levelCore is the kernels to ask for at each level: the oldest core of
// the level, whose instructions every CPU of the level has (Cooperlake's
// kernels also need AVX-512 BF16).
var levelCore = [...]string{levelAVX: "Sandybridge", levelAVX2: "Haswell", levelAVX512: "SkylakeX"}

// wantCore returns the OPENBLAS_CORETYPE value to restart with, or "" to
// keep the kernels OpenBLAS picked: picked is their name, config
// OpenBLAS's build configuration (la.BLASConfig), f the CPU's features
// and lookup the environment's os.LookupEnv.
func wantCore(lookup func(string) (string, bool), picked, config string, f features) string {
	if v, _ := lookup(AutoEnv); autoOff(v) {
		return ""
	}
	if v, ok := lookup(CoreEnv); ok && v != "" {
		return "" // the user's choice
	}
	if !strings.Contains(config, "DYNAMIC_ARCH") {
		return "" // one set of kernels: the variable would change nothing
	}
	have, known := coreLevel[strings.ToLower(picked)]
	if !known || have >= f.level() {
		return ""
	}
	return levelCore[f.level()]
}

// autoOff reports whether v, the value of AutoEnv, turns UseBestKernels off.
func autoOff(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v == "0" || v == "false" || v == "off"
}
