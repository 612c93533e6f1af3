package cli

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/model"
)

// TestTrainARD: --kernel seard and seard+bias train with d length scales
// (default start: each t2_k = d/4 as SE's t2), the model stores them, and
// predict and eval read it back; a --theta of the wrong length is a usage
// error naming the expected count.
func TestTrainARD(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		kern  string
		extra []string
		np    int
	}{
		{"seard", nil, 3 + 2},
		{"seard+bias", nil, 3 + 3},
		{"seard", []string{"--theta", "4,1,2,3,0.01", "--hyp-every", "0"}, 3 + 2},
	} {
		m := filepath.Join(f.dir, "ard.pgp")
		args := append([]string{"train", "--data", f.bin, "--model", m, "--kernel", c.kern, "--init", "30", "--sub", "3", "--passes", "1", "--quiet"}, c.extra...)
		if code, _, e := runCLI(t, args...); code != 0 {
			t.Fatalf("train %s %v: %d %s", c.kern, c.extra, code, e)
		}
		mod, err := model.Load(m)
		if err != nil {
			t.Fatal(err)
		}
		k := mod.Binaries[0].Kernel
		if k.Name() != c.kern || len(k.Params()) != c.np {
			t.Fatalf("%s: stored kernel %s with θ %v", c.kern, k.Name(), k.Params())
		}
		if c.extra != nil {
			if l := k.(kernel.SEARD).Len2; l[0] != 1 || l[1] != 2 || l[2] != 3 {
				t.Errorf("fixed θ not kept: %v", k.Params())
			}
		}
		if code, out, e := runCLI(t, "eval", "--model", m, "--data", f.binTest, "--json"); code != 0 || !strings.Contains(out, `"error"`) {
			t.Fatalf("eval %s: %d %s %s", c.kern, code, out, e)
		}
	}
	code, _, e := runCLI(t, "train", "--data", f.bin, "--model", filepath.Join(f.dir, "x.pgp"), "--kernel", "seard", "--theta", "4,1,0.01", "--quiet")
	if code != 2 || !strings.Contains(e, "takes 5 hyperparameters") {
		t.Errorf("wrong θ length: %d %s", code, e)
	}
}

// TestCheckpointResumeARD: a run with --kernel seard+bias interrupted
// after a batch and resumed from its checkpoint ends with the model of the
// uninterrupted run (the kernel comes back from the checkpoint).
func TestCheckpointResumeARD(t *testing.T) {
	f := newFixture(t)
	args := []string{"train", "--data", f.bin, "--init", "30", "--sub", "3", "--passes", "2", "--kernel", "seard+bias", "--quiet"}
	full := filepath.Join(f.dir, "full.pgp")
	if code, _, e := runCLI(t, append(args, "--model", full)...); code != 0 {
		t.Fatal(e)
	}
	oldEvery := checkpointEvery
	checkpointEvery = 0
	defer func() { checkpointEvery, testHook = oldEvery, nil }()
	ck, out := filepath.Join(f.dir, "ck"), filepath.Join(f.dir, "resumed.pgp")
	ctx, cancel := context.WithCancel(context.Background())
	seen := 0
	testHook = func(event string, k int) {
		if event == "batch" {
			if seen++; seen == 2 {
				cancel()
			}
		}
	}
	code, _, e := runCLICtx(t, ctx, append(args, "--model", out, "--checkpoint", ck)...)
	cancel()
	testHook = nil
	if code != 130 {
		t.Fatalf("interrupt: code %d, stderr %q", code, e)
	}
	if code, _, e := runCLI(t, "train", "--resume", ck, "--data", f.bin, "--model", out, "--quiet"); code != 0 {
		t.Fatalf("resume: %d %s", code, e)
	}
	a, _ := model.Load(full)
	b, err := model.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	ka, kb := a.Binaries[0].Kernel, b.Binaries[0].Kernel
	if ka.Name() != "seard+bias" || kb.Name() != ka.Name() || !slices.Equal(ka.Params(), kb.Params()) ||
		a.Binaries[0].Post.LogZ != b.Binaries[0].Post.LogZ || len(a.Binaries[0].Y) != len(b.Binaries[0].Y) {
		t.Errorf("resumed model differs: %s %v |A| %d log Z %v; uninterrupted %s %v |A| %d log Z %v",
			kb.Name(), kb.Params(), len(b.Binaries[0].Y), b.Binaries[0].Post.LogZ, ka.Name(), ka.Params(), len(a.Binaries[0].Y), a.Binaries[0].Post.LogZ)
	}
}
