package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/synth"
)

// writeLIBSVM writes ds as a LIBSVM file in dir and returns its path.
func writeLIBSVM(t *testing.T, dir, name string, ds *data.Dataset) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < ds.N; i++ {
		fmt.Fprintf(&b, "%v", ds.Y[i])
		for j, v := range ds.Row(i) {
			fmt.Fprintf(&b, " %d:%v", j+1, v)
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// fixture writes a binary data set (classes 0 and 1 of a seeded
// 3-class, 3-feature problem, as −1, +1), the 3-class one and one with a
// single class; it returns their paths.
func fixture(t *testing.T) (bin, multi, one string) {
	t.Helper()
	dir := t.TempDir()
	tr := synth.Bands(11, 240, 3, 3, synth.BandsNoise)
	var idx []int
	for i, y := range tr.Y {
		if y != 2 {
			idx = append(idx, i)
		}
	}
	b := tr.Subset(idx)
	for i := range b.Y {
		b.Y[i] = 2*b.Y[i] - 1
	}
	o := tr.Subset([]int{0, 1, 2, 3, 4})
	for i := range o.Y {
		o.Y[i] = 7
	}
	return writeLIBSVM(t, dir, "bin.libsvm", b), writeLIBSVM(t, dir, "train.libsvm", tr), writeLIBSVM(t, dir, "one.libsvm", o)
}

func runCmd(args ...string) (int, string, string) {
	var out, e bytes.Buffer
	code := run(context.Background(), args, &out, &e)
	return code, out.String(), e.String()
}

// TestEvidence: the JSON result is plausible, its gradient agrees with a
// central difference of log Z in log θ_2 (relative tolerance 1e-3), and
// the other kernels and the text output work.
func TestEvidence(t *testing.T) {
	bin, _, _ := fixture(t)
	code, out, e := runCmd("--data", bin, "--kernel", "se", "--theta", "2,1.5,0.01", "--json")
	if code != 0 {
		t.Fatalf("evidence: %d %s", code, e)
	}
	var r struct {
		N      int       `json:"n"`
		LogZ   *float64  `json:"log_z"`
		Grad   []float64 `json:"grad_log_theta"`
		Sweeps int       `json:"sweeps"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.N < 100 || r.LogZ == nil || *r.LogZ >= 0 || len(r.Grad) != 3 || r.Sweeps < 1 {
		t.Fatalf("evidence JSON %s", out)
	}
	lz := func(t2 float64) float64 {
		_, o, _ := runCmd("--data", bin, "--theta", fmt.Sprintf("2,%v,0.01", t2), "--json", "--tol", "1e-10", "--max-sweeps", "1000")
		var v struct {
			LogZ float64 `json:"log_z"`
		}
		if err := json.Unmarshal([]byte(o), &v); err != nil {
			t.Fatal(err)
		}
		return v.LogZ
	}
	const h = 1e-4
	fd := (lz(1.5*math.Exp(h)) - lz(1.5*math.Exp(-h))) / (2 * h)
	if math.Abs(fd-r.Grad[1]) > 1e-3*math.Max(1, math.Abs(fd)) {
		t.Errorf("d log Z / d log t2 = %v, central difference %v", r.Grad[1], fd)
	}
	for _, k := range []struct{ kern, theta, want string }{
		{"se+lin", "1,2,0.01,0.1", `"log_z"`},
		{"poly", "1,0.01", `"log_z"`},
		{"seard+bias", "2,1,1.5,2,0.01,0.5", `"t2[3]"`},
	} {
		code, out, e := runCmd("--data", bin, "--kernel", k.kern, "--degree", "2", "--theta", k.theta, "--json")
		if code != 0 || !strings.Contains(out, k.want) {
			t.Errorf("evidence %s: %d %s %s", k.kern, code, out, e)
		}
	}
	code, out, _ = runCmd("--data", bin, "--theta", "2,1.5,0.01")
	if code != 0 || !strings.Contains(out, "log Z_EP") {
		t.Errorf("evidence text: %d %s", code, out)
	}
}

// TestBadInput: bad data exits 1, a bad command line 2, and the message
// names the file or the flag.
func TestBadInput(t *testing.T) {
	bin, multi, one := fixture(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.libsvm")
	malformed := filepath.Join(dir, "bad.libsvm")
	if err := os.WriteFile(malformed, []byte("1 1:0.5\nx 2:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"one class", []string{"--data", one, "--theta", "1,1,0.01"}, 1, "one.libsvm"},
		{"multi-class", []string{"--data", multi, "--theta", "1,1,0.01"}, 1, "classes"},
		{"no data", []string{"--theta", "1,1,0.01"}, 2, "--data"},
		{"no theta", []string{"--data", bin}, 2, "--theta"},
		{"theta count", []string{"--data", bin, "--kernel", "poly", "--theta", "1,1,1"}, 2, "theta"},
		{"ard theta count", []string{"--data", bin, "--kernel", "seard", "--theta", "2,1,1.5,2,3,0.01"}, 2, "takes 5"},
		{"theta NaN", []string{"--data", bin, "--theta", "1,NaN,1"}, 2, "theta"},
		{"bad degree", []string{"--data", bin, "--kernel", "poly", "--degree", "0", "--theta", "1,1"}, 2, "degree"},
		{"bad schedule", []string{"--data", bin, "--theta", "1,1,0.01", "--schedule", "x"}, 2, "--schedule"},
		{"missing", []string{"--data", missing, "--theta", "1,1,0.01"}, 1, "missing.libsvm"},
		{"too large", []string{"--data", bin, "--theta", "1,1,0.01", "--max-gb", "1e-6"}, 1, "GB"},
		{"malformed", []string{"--data", malformed, "--theta", "1,1,0.01"}, 1, "bad.libsvm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, e := runCmd(tc.args...)
			if code != tc.code || !strings.Contains(e, tc.want) {
				t.Errorf("exit %d, want %d; stderr %q should name %q", code, tc.code, e, tc.want)
			}
		})
	}
}
