package la

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/cpu"
)

// BLASCore returns the name of the CPU kernels the BLAS library runs, as
// OpenBLAS reports it (openblas_get_corename: "Haswell", "Zen",
// "SkylakeX", "Cooperlake", "Prescott", ...), or "" for the pure-Go
// backend.
func BLASCore() string { return blasCore() }

// CheckBLASCore returns a warning when the BLAS library runs kernels for an
// older instruction set than this CPU has, and "" otherwise (also when the
// environment sets OPENBLAS_CORETYPE: that choice is the user's).
//
// OpenBLAS built for several CPUs (DYNAMIC_ARCH, as Debian's is) picks
// its kernels from the CPU's family and model at load time. A virtual
// machine that reports a generic model hides the CPU from it: on a
// 16-core VM reporting "Intel(R) Xeon(R) Processor" with AVX-512,
// OpenBLAS 0.3.21 chose its Prescott (SSE3) kernels, and DGEMM ran at 12
// GFLOP/s per core instead of 66 with OPENBLAS_CORETYPE=SkylakeX
// (docs/performance.md, "Multi-core scaling"). The kernels are chosen
// before any Go code runs, so only the environment of the process can
// change them; the warning names the setting.
func CheckBLASCore() string {
	if v, ok := os.LookupEnv("OPENBLAS_CORETYPE"); ok && v != "" {
		return ""
	}
	x := cpu.X86
	return coreAdvice(BLASCore(), x.HasAVX2 && x.HasFMA,
		x.HasAVX512F && x.HasAVX512BW && x.HasAVX512CD && x.HasAVX512DQ && x.HasAVX512VL)
}

// coreAdvice is CheckBLASCore for the BLAS core name and what the CPU
// supports: AVX2 with FMA, and the AVX-512 subsets (F, BW, CD, DQ, VL) that
// OpenBLAS's SkylakeX kernels use. It warns only about kernels older than
// AVX2 (a several-fold loss); a core name it does not know (another
// architecture, a newer OpenBLAS) gets no warning.
func coreAdvice(core string, avx2, avx512 bool) string {
	c := strings.ToLower(core)
	if !slices.Contains(oldX86Cores, c) {
		return ""
	}
	switch {
	case avx512:
		return advice(core, "AVX-512", "SkylakeX")
	case avx2:
		return advice(core, "AVX2 and FMA", "Haswell")
	}
	return ""
}

func advice(core, has, want string) string {
	return fmt.Sprintf("OpenBLAS runs its %s kernels, but this CPU has %s: OPENBLAS_CORETYPE=%s in the environment makes its linear algebra several times faster (docs/performance.md)", core, has, want)
}

// oldX86Cores lists OpenBLAS's x86 core names (driver/others/dynamic.c,
// lower case) whose kernels predate AVX2 with FMA.
var oldX86Cores = []string{"katmai", "coppermine", "northwood", "prescott", "banias", "atom", "core2",
	"penryn", "dunnington", "nehalem", "athlon", "opteron", "opteron_sse3", "barcelona", "nano",
	"sandybridge", "bobcat", "bulldozer", "piledriver", "steamroller", "excavator"}
