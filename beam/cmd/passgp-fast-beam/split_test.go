package main

import (
	"bytes"
	"context"
	"flag"
	"regexp"
	"slices"
	"testing"

	"github.com/passgp-fast/passgp-fast/internal/cli"
)

// TestSplitArgs: Beam's flags, with their values, leave a passgp-fast
// command line, in every form package flag reads; passgp-fast's flags,
// the names in keep and everything after "--" stay.
func TestSplitArgs(t *testing.T) {
	fs := flag.NewFlagSet("beam", flag.ContinueOnError)
	fs.String("runner", "", "")
	fs.String("labels", "", "")
	fs.Bool("dry_run", false, "")
	keep := map[string]bool{"labels": true}
	for _, c := range []struct {
		args, beam, rest []string
	}{
		{[]string{"train", "--data", "x.pgd"}, nil, []string{"train", "--data", "x.pgd"}},
		{[]string{"train", "--runner", "flink", "--data", "x.pgd"}, []string{"--runner", "flink"}, []string{"train", "--data", "x.pgd"}},
		{[]string{"train", "-runner=flink", "--dry_run", "--quiet"}, []string{"-runner=flink", "--dry_run"}, []string{"train", "--quiet"}},
		{[]string{"train", "--dry_run=false", "--labels", "l.gz"}, []string{"--dry_run=false"}, []string{"train", "--labels", "l.gz"}},
		{[]string{"train", "--", "--runner", "x"}, nil, []string{"train", "--", "--runner", "x"}},
		{[]string{"train", "---runner", "x", "-", "--runner"}, []string{"--runner"}, []string{"train", "---runner", "x", "-"}},
	} {
		b, r := splitArgs(fs, keep, c.args)
		if !slices.Equal(b, c.beam) || !slices.Equal(r, c.rest) {
			t.Errorf("%q: Beam %q, rest %q; want %q, %q", c.args, b, r, c.beam, c.rest)
		}
	}
}

// TestSplitPassgpFlags: no flag of a passgp-fast command is one of Beam's
// (in the process's flag set) except those of passgpFirst, which stay
// passgp-fast's; otherwise splitArgs would hand it to Beam. predict's own
// flags, which run registers there (TestRunCommands), are not Beam's.
func TestSplitPassgpFlags(t *testing.T) {
	t.Setenv("PASSGP_BLAS_AUTO", "0") // cli.Main restarts no test binary
	predictFlags := flag.NewFlagSet("predict", flag.ContinueOnError)
	registerPredict(predictFlags, registerShared(predictFlags))
	beams := func(name string) bool {
		f, p := flag.CommandLine.Lookup(name), predictFlags.Lookup(name)
		return f != nil && (p == nil || p.Usage != f.Usage)
	}
	flagLine := regexp.MustCompile(`(?m)^  --([a-z0-9-]+)`)
	seen := 0
	for _, cmd := range []string{"train", "predict", "eval", "demo", "plot", "convert"} {
		var o, e bytes.Buffer
		if code := cli.Main(context.Background(), []string{cmd, "--help"}, &o, &e, engines(&sharedFlags{})); code != 0 {
			t.Fatalf("%s --help: exit %d, %s", cmd, code, e.String())
		}
		for _, m := range flagLine.FindAllStringSubmatch(o.String(), -1) {
			seen++
			if beams(m[1]) && !passgpFirst[m[1]] {
				t.Errorf("passgp-fast %s --%s is also Beam's flag", cmd, m[1])
			}
		}
	}
	if seen < 25 {
		t.Errorf("read %d flags from the commands' help, want at least train's 25", seen)
	}
	for name := range passgpFirst {
		if !beams(name) {
			t.Errorf("passgpFirst names %s, which Beam does not define", name)
		}
	}
}

// TestOwnCommand: predict, help and no command (Beam's worker) are this
// program's; any other command is passgp-fast's.
func TestOwnCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		own  bool
	}{
		{nil, true}, {[]string{"--worker", "--id=1"}, true}, {[]string{"predict", "--model", "m"}, true},
		{[]string{"help"}, true}, {[]string{"train", "--engine", "beam"}, false}, {[]string{"eval"}, false},
	} {
		if got := ownCommand(c.args); got != c.own {
			t.Errorf("%q: own %v, want %v", c.args, got, c.own)
		}
	}
}
