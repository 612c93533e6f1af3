package la

// BLASCore returns the name of the CPU kernels the BLAS library runs, as
// OpenBLAS reports it (openblas_get_corename: "Haswell", "Zen",
// "SkylakeX", "Cooperlake", "Prescott", ...), or "" for the pure-Go
// backend.
//
// OpenBLAS built for several CPUs (DYNAMIC_ARCH, as Debian's is) picks
// its kernels when the library is loaded, from the CPU's family and model
// or from OPENBLAS_CORETYPE in the environment; nothing in this package
// changes them. Package la/blasinit lets a program's main function choose
// them for the CPU's instruction set (see the package doc, "Kernels").
func BLASCore() string { return blasCore() }

// BLASConfig returns OpenBLAS's build configuration as it reports it
// (openblas_get_config: "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH
// NO_AFFINITY Cooperlake MAX_THREADS=64"), or "" for the pure-Go backend.
func BLASConfig() string { return blasConfig() }
