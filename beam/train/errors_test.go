package train

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	passgpfast "github.com/passgp-fast/passgp-fast"
)

// TestRemoteErrors: bad options, a data file that cannot be opened, a
// row beyond the file and a data file that the workers cannot open give
// errors that name the problem and the file.
func TestRemoteErrors(t *testing.T) {
	ctx := context.Background()
	path, src := dataFile(t, 2, 300)
	missing := filepath.Join(t.TempDir(), "gone.pgd")
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"unaligned parts", Options{Data: path, PartRows: 100}, "multiple of 256"},
		{"no data file", Options{Data: missing}, missing},
	} {
		if _, err := New(ctx, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	r, err := New(ctx, Options{Data: path})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m, v := make([]float64, 1), make([]float64, 1)
	if err := r.Score(ctx, nil, []int{300}, nil, m, v); err == nil || !strings.Contains(err.Error(), path+": row 301 of 300") {
		t.Errorf("row beyond the file: error %v", err)
	}

	// The workers' copy of the data file is gone once training starts.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(missing, b, 0o644); err != nil {
		t.Fatal(err)
	}
	gone, err := New(ctx, Options{Data: missing, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer gone.Close()
	if err := os.Remove(missing); err != nil {
		t.Fatal(err)
	}
	_, err = passgpfast.FitBinary(ctx, src, append(fitOptions(), passgpfast.WithRemoteScorer(gone))...)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("workers cannot open the data file: error %v, want one naming %s", err, missing)
	}
}
