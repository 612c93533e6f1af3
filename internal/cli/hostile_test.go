package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// TestHostileInput: files that claim more than they hold get one-line
// errors naming the file, never an out-of-memory crash or a panic.
func TestHostileInput(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }

	// A feature index of two billion on a two-line file.
	os.WriteFile(p("wide.libsvm"), []byte("1 2000000000:1\n-1 1:1\n"), 0o644)
	code, _, e := runCLI(t, "train", "--data", p("wide.libsvm"), "--model", p("m.pgp"))
	if code != exitError || !strings.Contains(e, p("wide.libsvm")+":1:") || !strings.Contains(e, "dense") {
		t.Errorf("huge feature index: code %d, %q", code, e)
	}

	// Thousands of distinct real-valued labels: a regression file.
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "%.4f 1:%d 2:%d\n", float64(i)*0.37, i%7, i%5)
	}
	os.WriteFile(p("reg.libsvm"), []byte(b.String()), 0o644)
	code, _, e = runCLI(t, "train", "--data", p("reg.libsvm"), "--model", p("m.pgp"))
	if code != exitError || !strings.Contains(e, "500 distinct labels") || !strings.Contains(e, "regression") {
		t.Errorf("regression labels: code %d, %q", code, e)
	}

	// A valid model file whose one classifier claims |A| = 100,000 in one
	// dimension (an 80 GB posterior) is refused before it is rebuilt.
	const n = 100000
	x := mat.NewDense(n, 1, nil)
	y, tau, nu := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range y {
		y[i] = float64(2*(i%2) - 1)
		x.Set(i, 0, float64(i))
	}
	// The posterior is never built here: only its sites are stored.
	huge := &passgp.Binary{Kernel: kernel.SE{Var: 1, Len2: 1, Jitter: 1e-6}, X: x, Y: y,
		Post: &ep.Posterior{Sites: ep.Sites{Tau: tau, Nu: nu}}}
	if err := model.Save(p("huge.pgp"), &model.Model{Mode: model.Binary, Classes: []float64{-1, 1}, Binaries: []*passgp.Binary{huge}}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(p("huge.pgp")); err != nil || st.Size() > 8<<20 {
		t.Fatalf("model file: %v", err)
	}
	os.WriteFile(p("test.libsvm"), []byte("1 1:0.5\n-1 1:2\n"), 0o644)
	code, _, e = runCLI(t, "eval", "--model", p("huge.pgp"), "--data", p("test.libsvm"))
	if code != exitError || !strings.Contains(e, p("huge.pgp")) || !strings.Contains(e, "largest |A| = 100000") {
		t.Errorf("huge model: code %d, %q", code, e)
	}
}
