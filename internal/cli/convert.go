package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/passgp-fast/passgp-fast/data"
)

// runConvert writes a data file as a checksummed binary data file
// (docs/data-format.md), streaming it row block by row block, so that
// files larger than memory convert and later passes read it quickly.
func runConvert(ctx context.Context, _ invocation, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("convert", "--data FILE --out FILE.pgd [flags]",
		"Writes the data as a binary data file that every command reads like the original, faster.")
	var d dataFlags
	d.register(fs, true)
	out := fs.String("out", "", "output binary data `FILE` (required)")
	f32 := fs.Bool("float32", false, "store features as float32 (half the size; rounds them)")
	if code, ok := fs.parse(args, stdout, stderr); !ok {
		return code
	}
	if err := convert(ctx, &d, *out, *f32); err != nil {
		return exitFor(stderr, "convert", err)
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return exitOK
}

func convert(ctx context.Context, d *dataFlags, out string, f32 bool) error {
	if d.path == "" || out == "" {
		return errUsage("--data FILE and --out FILE are required")
	}
	f, err := d.dataFormat()
	if err != nil {
		return err
	}
	src, err := data.OpenSource(ctx, d.path, data.Options{Format: f, Labels: d.labels, CSV: data.CSVOptions{Label: d.labelCol}})
	if err != nil {
		return err
	}
	defer src.Close()
	return data.WriteBinary(ctx, out, src, data.WriteOptions{Float32: f32})
}
