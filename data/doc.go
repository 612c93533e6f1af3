// Package data reads classification data sets into dense float64 rows:
// LIBSVM/svmlight sparse text, delimited text (CSV) and MNIST IDX
// image/label pairs, each plain or gzip- or bzip2-compressed.
//
// # Result
//
// Every reader returns a *Dataset: N examples of D features stored row-major
// in one contiguous slice X (len(X) == N*D; Row(i) and Dense() view it
// without copying), the labels Y (any finite numbers; nil when the source
// has none), and the Source name used in errors. Labels are kept as
// written; BinaryLabels maps them to ±1 for a binary task (the larger
// label, or a chosen one against the rest, becomes +1) and Classes lists the
// distinct labels of a multi-class task. Every value and label is finite.
// Subset copies chosen rows; FitMinMax and FitStandard fit a per-feature
// Scaling on training data that Apply then uses on any data of the same
// width; Validate checks a hand-built Dataset.
//
// # Formats
//
// Compression is recognised by content (gzip 1f 8b, bzip2 "BZh1"-"BZh9"),
// whatever the file is called; the readers accept compressed or plain
// streams alike, and Open returns the decompressed content of a file.
// Input is streamed through a bufio.Reader: a text file is never held in
// memory as a whole, only the growing result, which is collected in
// fixed-size chunks and copied once into the final slice (peak memory
// about twice the result, more while a LIBSVM file's width still grows).
// Decimal numbers take an exact fast path (Clinger's) and otherwise
// strconv.ParseFloat; both give identical bits.
//
// LIBSVM (ReadLIBSVM): one example per line,
//
//	label index:value index:value ... # comment
//
// with 1-based, strictly increasing indices; absent indices are 0. Text
// after '#' is ignored, as are blank lines and svmlight "qid:n" tokens.
// Fields are separated by spaces or tabs; "\r\n" line ends and trailing
// blanks are fine. D is the largest index in the file, at least
// LIBSVMOptions.MinDim; LIBSVMOptions.Dim fixes it (e.g. to a model's input
// dimension) and makes a larger index an error.
//
// CSV (ReadCSV): one example per record, all fields numeric. The label
// column is chosen by CSVOptions (first by default, negative counts from
// the end, or by header name). The delimiter is detected from the first
// record (',' then tab then ';', otherwise runs of blanks, which reads the
// ESL zip.train files); double-quoted fields are unquoted. A first record
// with a non-numeric field is taken as a header unless CSVOptions.Header
// says otherwise. Blank lines and lines starting with '#' are skipped.
//
// IDX (ReadIDX): LeCun's MNIST format. The image file has magic
// 0x00000803 (count, rows, columns) of unsigned bytes, which become
// value/255 in [0, 1], with ImageH and ImageW set; a 2-dimensional file
// (0x00000802, count × features) is read the same way without geometry.
// The optional label file has magic 0x00000801 and as many byte labels as
// there are images.
//
// Load opens a path and picks the format: IDX by its leading zero bytes,
// then by name (.csv, .tsv; .libsvm, .svm, .svmlight; a compression
// suffix is ignored), then by content (index:value tokens mean LIBSVM,
// other multi-field lines delimited text). For IDX it reads the label
// file Options.Labels, or the MNIST sibling (train-images-idx3-ubyte →
// train-labels-idx1-ubyte) if present.
//
// # Errors
//
// Bad input never panics and never yields NaN: the readers return a
// *ParseError whose message is one line naming the file, the line (for
// text; 0 when no single line applies, such as IDX records, which the
// message names) and the problem, for example
//
//	usps.train.bz2:17: feature index 3 not greater than previous 5
//	a.csv:4: 3 fields, want 257 as on line 1
//	train-images-idx3-ubyte.gz: truncated: image 5 of 60000 has 100 of 784 bytes
//
// Problems reported: an empty file or one with no examples; a malformed
// label, value, index or token; a feature index of 0, not increasing, or
// beyond the required dimension; a NaN, infinite or overflowing label or
// value; a CSV record with a different number of fields, an unterminated
// quote or a missing label column; a wrong IDX magic, data type or
// dimension count, a truncated IDX header or body, extra data after it, a
// label count different from the image count; a result too large to hold
// densely (from a forged header or an absurd index); and, from
// BinaryLabels and Validate, fewer than two classes or more than two
// without a positive label. Decompression and I/O failures are wrapped in
// a *ParseError with the line reached (see Unwrap). Errors opening a file
// are those of package os.
package data
