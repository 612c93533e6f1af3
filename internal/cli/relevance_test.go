package cli

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/passgp-fast/passgp-fast/synth"
)

// TestTrainRelevance: on a seeded task whose features 1-3 carry the
// classes and 4-8 are noise, train --kernel seard+bias prints the
// feature relevance block with the three relevant features on top
// (ranks only, so any BLAS kernels pass), eval --json holds the
// relevance vectors, and plot draws and lists relevance.png. With a kernel
// without length scales per feature none of it appears.
func TestTrainRelevance(t *testing.T) {
	dir := t.TempDir()
	task := synth.Task{Classes: 2, D: 8, Relevant: 3, Sep: 2.5}
	tr, te := filepath.Join(dir, "train.libsvm"), filepath.Join(dir, "test.libsvm")
	for _, f := range []struct {
		path string
		n    int
		seed uint64
	}{{tr, 600, 12}, {te, 200, 13}} {
		ds, err := synth.Dataset(task, f.n, f.seed)
		if err != nil {
			t.Fatal(err)
		}
		writeLIBSVM(t, f.path, ds)
	}
	for _, c := range []struct {
		kern string
		ard  bool
	}{{"seard+bias", true}, {"se+bias", false}} {
		m, figs := filepath.Join(dir, c.kern+".pgp"), filepath.Join(dir, c.kern+"-figs")
		code, out, e := runCLI(t, "train", "--data", tr, "--model", m, "--kernel", c.kern, "--scale", "standard",
			"--init", "100", "--sub", "3", "--seed", "5", "--threads", "1", "--quiet")
		if code != 0 {
			t.Fatalf("train %s: %d %s", c.kern, code, e)
		}
		top := relevanceBlock(t, out)
		if code, _, e := runCLI(t, "plot", "--model", m, "--data", te, "--out", figs); code != 0 {
			t.Fatalf("plot %s: %d %s", c.kern, code, e)
		}
		_, statErr := os.Stat(filepath.Join(figs, "relevance.png"))
		if !c.ard {
			if top != nil || statErr == nil {
				t.Errorf("%s: relevance block %v or relevance.png (stat %v) for a kernel without ARD", c.kern, top, statErr)
			}
			continue
		}
		if len(top) != 8 || !slices.Equal(slices.Sorted(slices.Values(top[:3])), []int{1, 2, 3}) {
			t.Errorf("relevance block ranks features %v, want 1, 2, 3 first:\n%s", top, out)
		}
		if !strings.Contains(out, "standard-scaled inputs") || !strings.Contains(out, "of 8 features below 1% of the largest") {
			t.Errorf("relevance block does not state the space or the ignored count:\n%s", out)
		}
		code, js, e := runCLI(t, "eval", "--model", m, "--data", te, "--json")
		var r struct {
			Relevance *struct {
				Raw, Normalized [][]float64
				Mean            []float64
				Scale           string
			}
		}
		if code != 0 || json.Unmarshal([]byte(js), &r) != nil || r.Relevance == nil {
			t.Fatalf("eval --json: %d %s %s", code, js, e)
		}
		if rel := r.Relevance; len(rel.Raw) != 1 || len(rel.Raw[0]) != 8 || len(rel.Normalized[0]) != 8 || len(rel.Mean) != 8 || rel.Scale != "standard" {
			t.Errorf("eval --json relevance %+v: want one classifier's 8 features in standard scaling", rel)
		}
		out2 := filepath.Join(dir, "plot-out")
		code, list, e := runCLI(t, "plot", "--model", m, "--data", te, "--out", out2)
		if code != 0 || !strings.Contains(list, filepath.Join(out2, "relevance.png")) {
			t.Fatalf("plot: %d %s %s", code, list, e)
		}
		checkPNGFile(t, filepath.Join(out2, "relevance.png"))
	}
}

// relevanceBlock returns the features train's relevance block lists, in
// its order (nil: no block).
func relevanceBlock(t *testing.T, out string) []int {
	t.Helper()
	_, block, ok := strings.Cut(out, "\nfeature relevance (ARD")
	if !ok {
		return nil
	}
	feats := []int{}
	_, block, ok = strings.Cut(block, "relevance\n")
	if !ok {
		t.Fatalf("relevance block without its table:\n%s", out)
	}
	for _, line := range strings.Split(block, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			break
		}
		j, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatalf("relevance line %q", line)
		}
		feats = append(feats, j)
	}
	return feats
}

// checkPNGFile checks that path is a non-empty PNG image.
func checkPNGFile(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if r := img.Bounds(); r.Dx() < 100 || r.Dy() < 100 {
		t.Errorf("%s: image %v", path, r)
	}
}
