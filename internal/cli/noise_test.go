package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// TestTrainSelectionFlags: train's defaults are a budget of 12·√N points
// (passgp.SqrtBudget) for PASS-GP, the paper's rules are one flag away, the selection flags reach the model's
// options, the noise counts reach its
// history, and bad values are refused.
func TestTrainSelectionFlags(t *testing.T) {
	f := newFixture(t)
	m := filepath.Join(f.dir, "s.pgp")
	load := func(args ...string) *model.Model {
		t.Helper()
		a := append([]string{"train", "--data", f.bin, "--model", m}, fast...)
		if code, _, e := runCLI(t, append(a, args...)...); code != 0 {
			t.Fatalf("train %v: %d %s", args, code, e)
		}
		mm, err := model.Load(m)
		if err != nil {
			t.Fatal(err)
		}
		return mm
	}
	d := load()
	var dopt struct{ N int }
	if err := json.Unmarshal(d.Options, &dopt); err != nil || dopt.N == 0 {
		t.Fatalf("options %s: %v", d.Options, err)
	}
	budget := fmt.Sprintf(`"max_active":%d`, passgp.SqrtBudget(dopt.N))
	if o := string(d.Options); !strings.Contains(o, budget) {
		t.Errorf("default options %s (want %s)", o, budget)
	}
	p := load("--max-active", "0")
	if o := string(p.Options); strings.Contains(o, "max_active") {
		t.Errorf("options %s (want the paper's rules)", o)
	}
	if o := string(load("--max-active", "auto").Options); !strings.Contains(o, budget) {
		t.Errorf("--max-active auto: options %s, want %s", o, budget)
	}
	fp := load("--method", "fpassgp", "--max-active", "20", "--p-exc", "0.1")
	b := load("--max-active", "1000")
	if o := string(b.Options); !strings.Contains(o, `"max_active":1000`) {
		t.Errorf("options %s", o)
	}
	// The budget's note: where it bound (a run without one has none).
	a := append([]string{"train", "--data", f.bin, "--model", m}, fast...)
	if _, _, e := runCLI(t, append(a, "--max-active", "20", "--quiet=false")...); !strings.Contains(e, "the budget bound at 20 active points in pass 1 batch ") {
		t.Errorf("no note where the budget bound:\n%s", e)
	}
	if _, _, e := runCLI(t, append(a, "--quiet=false")...); strings.Contains(e, "the budget bound") || strings.Contains(e, "FITC") {
		t.Errorf("a note on a budget that never bound, or a FITC posterior:\n%s", e)
	}
	// Where it bound, the FITC posterior (Config.BoundFITC: at most 300,
	// and at most half the budget: here 10 of the 20 active points) predicts, at the θ of its search, which
	// is reported, and is stored in the options; BoundFITC 0 and --paper
	// turn it off.
	if _, _, e := runCLI(t, append(a, "--max-active", "20", "--quiet=false")...); !regexp.MustCompile(`FITC posterior \(10 inducing, \d+ points, \d+ sweeps, [^)]*\) at theta \[[^]]+\]`).MatchString(e) {
		t.Errorf("no FITC posterior where the budget bound:\n%s", e)
	}
	if o := string(load("--max-active", "20").Options); !strings.Contains(o, `"fitc_bound":300`) {
		t.Errorf("options %s, want fitc_bound 300", o)
	}
	if o := string(fp.Options); strings.Contains(o, `fitc_bound`) {
		t.Errorf("fpassgp options %s: fitc_bound is PASS-GP's", o)
	}
	testConfig = func(c *passgpfast.Config) { c.BoundFITC = 0 }
	_, _, e := runCLI(t, append(a, "--max-active", "20", "--quiet=false")...)
	testConfig = nil
	if strings.Contains(e, "FITC") {
		t.Errorf("a FITC posterior with BoundFITC 0:\n%s", e)
	}
	if o := string(load("--paper").Options); strings.Contains(o, "fitc_bound") || strings.Contains(o, "max_active") || !strings.Contains(o, `"kernel":"se"`) {
		t.Errorf("--paper: options %s, want no budget, no FITC pass and the SE kernel", o)
	}
	s := load("--max-active", "40")
	for _, h := range s.History[0] {
		if h.Active > 40 {
			t.Errorf("batch %+v: |A| above --max-active 40", h)
		}
	}
	if o := string(s.Options); !strings.Contains(o, `"max_active":40`) {
		t.Errorf("options %s", o)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-active", "-1"}, "--max-active"},
		{[]string{"--max-active", "half"}, "--max-active"},
	} {
		a := append([]string{"train", "--data", f.bin, "--model", m}, fast...)
		if code, _, e := runCLI(t, append(a, c.args...)...); code != 2 || !strings.Contains(e, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, e, c.want)
		}
	}
}

// TestTrainWarnsUselessClassifier: a classifier no better than the
// majority rate on its held-out predictions is reported on stderr.
func TestTrainWarnsUselessClassifier(t *testing.T) {
	f := newFixture(t)
	m := filepath.Join(f.dir, "u.pgp")
	// 80% positives: a classifier whose every latent is the prior mean 0
	// (squared length scale 1e-8) calls them all negative.
	var b strings.Builder
	for i := 0; i < 50; i++ {
		y := 1
		if i%5 == 0 {
			y = -1
		}
		fmt.Fprintf(&b, "%d 1:%g 2:%g\n", y, float64(i%7)/7, float64(i%11)/11)
	}
	data := filepath.Join(f.dir, "skew.libsvm")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// Without --quiet (fast's last flag), which hides warnings too.
	a := append([]string{"train", "--data", data, "--model", m}, fast[:len(fast)-1]...)
	code, _, e := runCLI(t, append(a, "--theta", "4,1e-8,0.01", "--p-inc", "0.4")...)
	if code != 0 || !strings.Contains(e, "no better than always predicting the larger class") {
		t.Errorf("exit %d, stderr %q", code, e)
	}
	// fpassgp (θ held, so that it stays useless): the warning.
	fa := []string{"train", "--data", data, "--model", m, "--method", "fpassgp", "--max-active", "10", "--init", "10", "--sub", "3", "--p-exc", "0.1",
		"--theta", "4,1e-8,0.01", "--hyp-every", "0"}
	code, _, e = runCLI(t, fa...)
	if code != 0 || !strings.Contains(e, "no better than always predicting the larger class") {
		t.Errorf("fpassgp: exit %d, stderr %q", code, e)
	}
	if code, _, e := runCLI(t, append([]string{"train", "--data", f.bin, "--model", m}, fast[:len(fast)-1]...)...); code != 0 || strings.Contains(e, "no better than") {
		t.Errorf("a working classifier: exit %d, stderr %q", code, e)
	}
}
