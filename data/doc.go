// Package data reads classification data sets into dense float64 rows:
// LIBSVM/svmlight sparse text, delimited text (CSV) and MNIST IDX
// image/label pairs, each plain or gzip- or bzip2-compressed, and
// passgp-fast's binary data files; and it streams them in batches
// (Source) for training on data larger than memory.
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
// Load opens a path and picks the format: a binary data file by its
// magic, IDX by its leading zero bytes, then by name (.csv, .tsv; .libsvm, .svm, .svmlight; a compression
// suffix is ignored), then by content (index:value tokens mean LIBSVM,
// other multi-field lines delimited text). For IDX it reads the label
// file Options.Labels, or the MNIST sibling (train-images-idx3-ubyte →
// train-labels-idx1-ubyte) if present.
//
// Binary (WriteBinary, OpenBinary, ReadBinary): passgp-fast's own file
// for data read many times: a 64-byte header (magic "PASSGPD\x00",
// version, N, D, feature type float64 or float32, label count, image
// geometry, CRC-32C checksums of the header and of the payload), N
// fixed-size records (the label, then D features) and the sorted table of
// distinct labels; docs/data-format.md gives the layout. It is never
// compressed, so that rows can be read by index.
//
// # Streaming
//
// A Source yields a data set in batches, one pass at a time, into a
// caller-owned Batch of at most B rows: memory O(B·D) whatever N, no
// allocation per batch, the file's order in every pass, and ctx checked
// once per chunk of about 1 MiB. MemSource serves a Dataset, BinarySource
// a binary file, FileSource (OpenLIBSVM, OpenCSV, OpenIDX) a text or IDX
// file re-read in every pass, and OpenSource picks one by format as Load
// does; a trainer written against Source runs the same code on all
// of them. MemSource and BinarySource are RowReaders that also read rows
// by index, as a trainer gathering its active set does; Gather copies
// chosen rows of any Source into a Dataset. WriteBinary converts any
// Source to a binary file in one pass, so text larger than memory is
// converted without holding it; a pass over the binary file is about ten
// times faster than parsing the text (BenchmarkReadPass).
//
// A binary file's header and size are checked when it is opened; its
// payload checksum at the end of every complete pass, where a mismatch
// takes the place of io.EOF (a caller that trusts a pass only once it has
// ended never uses corrupted data), or up front with BinaryOptions.Verify,
// at the cost of an extra read. Each value and label is also checked as it
// is decoded.
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
// A binary data file is refused with one line naming the file and the
// problem, wrapping ErrNotBinary (a foreign file), ErrTruncated (shorter
// than its header promises, however large the header's counts: nothing
// is allocated from them), ErrCorrupt (a checksum mismatch, a bad header
// field, trailing bytes, a non-finite value) or ErrVersion, for example
//
//	train.pgd: file is truncated (1000 bytes, the header promises 2064)
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
