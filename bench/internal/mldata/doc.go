// Package mldata reads the UCI classification sets of R's mlbench package
// (Debian's r-cran-mlbench) for the benchmarks that use them
// (bench/mlbench, bench/devsuite): it exports a set as CSV with Rscript
// (Export), reads that CSV (ReadCSV), splits it by class with a seed
// (Table.Split) and writes rows in LIBSVM format (Table.Write).
package mldata
