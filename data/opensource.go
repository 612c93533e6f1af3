package data

import (
	"context"
	"fmt"
	"os"
)

// OpenSource opens the data file at path as a Source, detecting its
// format as Load does and honouring the same options (Dim, MinDim,
// Labels, CSV; MaxBytes does not apply to a stream): a binary data file
// becomes a BinarySource, any other a FileSource. ctx bounds the scan
// that OpenLIBSVM makes to find a LIBSVM file's width when o.Dim is 0.
func OpenSource(ctx context.Context, path string, o Options) (Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	format, _, err := detect(f, path, o.Format)
	f.Close()
	if err != nil {
		return nil, err
	}
	var src Source
	switch format {
	case Binary:
		src, err = OpenBinary(ctx, path, BinaryOptions{})
	case IDX:
		src, err = OpenIDX(path, o.Labels)
	case CSV:
		co := o.CSV
		co.Dim = o.Dim
		src, err = OpenCSV(path, co)
	case LIBSVM:
		src, err = OpenLIBSVM(ctx, path, LIBSVMOptions{Dim: o.Dim, MinDim: o.MinDim})
	default:
		return nil, fmt.Errorf("data: unknown format %q", format)
	}
	if err != nil {
		return nil, err
	}
	if o.Dim > 0 && src.Dim() != o.Dim {
		src.Close()
		return nil, errorf(path, 0, "%d features, want %d", src.Dim(), o.Dim)
	}
	return src, nil
}

// FormatOf returns the format of the data file at path, detected from its
// content and name as Load and OpenSource detect it (f itself unless f is
// Auto).
func FormatOf(path string, f Format) (Format, error) {
	file, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer file.Close()
	format, _, err := detect(file, path, f)
	return format, err
}
