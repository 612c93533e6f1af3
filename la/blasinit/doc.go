// Package blasinit lets a program run the OpenBLAS kernels made for the
// CPU it runs on, when OpenBLAS itself picked older ones.
//
// OpenBLAS built for several CPUs (DYNAMIC_ARCH, as Debian's is) chooses
// its kernels when the library is loaded, from the CPU's family and model,
// or from OPENBLAS_CORETYPE in the environment. A virtual machine that
// reports a generic CPU model hides the CPU from it: on one with AVX-512,
// OpenBLAS 0.3.21 picked its Prescott (SSE3) kernels and DGEMM ran about 5
// times slower than with its SkylakeX ones (docs/blas.md). The choice is
// made before any Go code runs, so only a new process can change it.
//
// UseBestKernels is that change, for a program's main function (or a
// test binary's TestMain) to call first, explicitly:
//
//	func main() {
//		k, err := blasinit.UseBestKernels()
//		if err != nil { ... exit }
//		if k.Note != "" { fmt.Fprintln(os.Stderr, "prog:", k.Note) }
//		...
//	}
//
// When OpenBLAS picked kernels for an older instruction set than the CPU
// has (AVX-512: SkylakeX; AVX2 with FMA: Haswell; AVX: Sandybridge), it
// re-executes the program once, with the same arguments and environment
// plus OPENBLAS_CORETYPE naming the better kernels and GuardEnv marking
// the restart. The restarted process, in its own call, checks a small
// DGEMM and two Cholesky factorisations (LAPACK's dpotrf and la.Cholesky)
// against gonum's pure-Go BLAS and LAPACK (Check); if they disagree it
// re-executes once more with OpenBLAS's own choice and reports that in
// Kernels.Note. GuardEnv makes it stop there: it never loops.
//
// It does nothing when OPENBLAS_CORETYPE is set (the user's choice), when
// AutoEnv is "0", "false" or "off", when the BLAS is not a DYNAMIC_ARCH
// OpenBLAS (the pure-Go backend included), or when OpenBLAS's choice
// already matches the CPU's instruction set or is a core it does not
// know (another architecture, a newer OpenBLAS).
//
// Package la and the packages built on it never call UseBestKernels, set
// environment variables or re-execute: replacing the process is the
// program's decision.
package blasinit
