package score

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/synth"
)

// TestRunErrors: bad options and a data file that does not fit the model
// are errors that name the problem (and the file), before any pipeline
// runs.
func TestRunErrors(t *testing.T) {
	modelPath, dataPath := fixture(t)
	wide := filepath.Join(t.TempDir(), "wide.pgd")
	ds, err := synth.Dataset(synth.Task{Classes: 2, D: 5}, 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := data.WriteBinary(context.Background(), wide, data.NewMemSource(ds), data.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"unaligned shards", Options{Model: modelPath, Data: dataPath, ShardRows: Align + 1}, "multiple of 4096"},
		{"features differ", Options{Model: modelPath, Data: wide}, wide + ": 5 features, but the model was trained on 4"},
		{"not a model", Options{Model: dataPath, Data: dataPath}, dataPath},
		{"no data file", Options{Model: modelPath, Data: wide + ".missing"}, "wide.pgd.missing"},
	} {
		_, err := Run(context.Background(), tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
