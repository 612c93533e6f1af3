package cli

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/model"
)

// TestPredictFarField: training writes no far-field gate; for a model
// file that carries one (10⁻⁴ and 10⁻⁸, as older builds wrote), with
// se+bias and a large constant, predict gives a point far from the
// training data the training labels' class shares (the calibration's
// Balance) and a point near them the model's map of the raw latent and
// share, as without the gate; --raw still prints the paper's q there,
// which the constant's posterior keeps off the balance.
func TestPredictFarField(t *testing.T) {
	f := newFixture(t)
	m := filepath.Join(f.dir, "far.pgp")
	args := []string{"train", "--data", f.train, "--model", m, "--kernel", "se+bias", "--theta", "4,2,0.01,4", "--init", "30", "--sub", "3", "--passes", "1", "--hyp-every", "0", "--quiet"}
	if code, _, e := runCLI(t, args...); code != 0 {
		t.Fatalf("train: %s", e)
	}
	mod, err := model.Load(m)
	if err != nil || mod.Calibration == nil || mod.Calibration.GateNear != 0 || mod.Calibration.GateFar != 0 {
		t.Fatalf("model: %v, calibration %+v; want no gate", err, mod.Calibration)
	}
	mod.Calibration.GateNear, mod.Calibration.GateFar = 1e-4, 1e-8
	if err := model.Save(m, mod); err != nil {
		t.Fatal(err)
	}
	pts := filepath.Join(f.dir, "far.libsvm")
	if err := os.WriteFile(pts, []byte("0 1:1000 2:-1000 3:1000\n0 1:0.1 2:0.2 3:-0.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := func(extra ...string) [][]float64 {
		code, out, e := runCLI(t, append([]string{"predict", "--model", m, "--data", pts}, extra...)...)
		if code != 0 {
			t.Fatalf("predict %v: %s", extra, e)
		}
		var r [][]float64
		for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			var v []float64
			for _, s := range strings.Split(line, ",")[1:] {
				p, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatalf("predict output %q: %v", line, err)
				}
				v = append(v, p)
			}
			r = append(r, v)
		}
		return r
	}
	cal, raw := rows(), rows("--raw")
	bal := mod.Calibration.Balance
	off := 0.0
	for j, p := range cal[0] {
		if math.Abs(p-bal[j]) > 1e-6 {
			t.Errorf("far point: p_%d = %v, want the class share %v", j, p, bal[j])
		}
		off = max(off, math.Abs(raw[0][j]-bal[j]))
	}
	if off < 1e-3 {
		t.Errorf("far point: raw q's %v are the class shares %v already; the test shows nothing", raw[0], bal)
	}
	// Near the data: the map of the raw latent and share, as ProbFromLatent
	// computes it without the gate.
	x := mat.NewDense(1, 3, []float64{0.1, 0.2, -0.1})
	z, rho := mat.NewDense(1, len(mod.Binaries), nil), mat.NewDense(1, len(mod.Binaries), nil)
	mod.LatentShareTo(z, rho, x)
	want := mat.NewDense(1, len(mod.Outputs()), nil)
	mod.ProbFromLatent(want, z, rho)
	for j, p := range cal[1] {
		if math.Abs(p-want.At(0, j)) > 1e-6 {
			t.Errorf("near point: p_%d = %v, want %v", j, p, want.At(0, j))
		}
	}
}
