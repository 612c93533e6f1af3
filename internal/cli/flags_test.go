package cli

import (
	"strings"
	"testing"

	passgpfast "github.com/passgp-fast/passgp-fast"
)

// TestTrainFlagResolution: train's flags resolve into the library's
// Config: --hyp-every 0 fixes θ, --max-active is PASS-GP's budget or the
// fixed size of fpassgp, ivm and random, --paper drops the budget and the
// FITC pass and picks the SE kernel unless --kernel is given, and
// --kernel poly:DEGREE[:GAMMA] sets the polynomial's degree and scale;
// bad values are usage errors naming the flag.
func TestTrainFlagResolution(t *testing.T) {
	def := passgpfast.DefaultConfig()
	for _, c := range []struct {
		name  string
		args  []string
		check func(c passgpfast.Config) bool
		err   string
	}{
		{"defaults", nil, func(c passgpfast.Config) bool {
			return !c.FixedTheta && c.HypEvery == def.HypEvery && c.MaxActive == passgpfast.AutoMaxActive && c.M == 0 &&
				c.BoundFITC == def.BoundFITC && c.Kernel == "" && c.Degree == 9 && c.Gamma == 0
		}, ""},
		{"hyp-every 0", []string{"--hyp-every", "0"}, func(c passgpfast.Config) bool { return c.FixedTheta && c.HypEvery == def.HypEvery }, ""},
		{"hyp-every 3", []string{"--hyp-every", "3"}, func(c passgpfast.Config) bool { return !c.FixedTheta && c.HypEvery == 3 }, ""},
		{"hyp-every -1", []string{"--hyp-every", "-1"}, nil, "--hyp-every"},
		{"passgp budget", []string{"--max-active", "50"}, func(c passgpfast.Config) bool { return c.MaxActive == 50 && c.M == 0 }, ""},
		{"passgp no budget", []string{"--max-active", "0"}, func(c passgpfast.Config) bool { return c.MaxActive == 0 }, ""},
		{"fpassgp size", []string{"--method", "fpassgp", "--max-active", "50"}, func(c passgpfast.Config) bool {
			return c.M == 50 && c.MaxActive == passgpfast.AutoMaxActive
		}, ""},
		{"ivm auto", []string{"--method", "ivm"}, func(c passgpfast.Config) bool { return c.M == 0 }, ""},
		{"random zero", []string{"--method", "random", "--max-active", "0"}, nil, "--max-active"},
		{"bad size", []string{"--max-active", "many"}, nil, "--max-active"},
		{"bad method", []string{"--method", "svm"}, nil, "--method"},
		{"paper", []string{"--paper"}, func(c passgpfast.Config) bool {
			return c.MaxActive == 0 && c.BoundFITC == 0 && c.Kernel == "se"
		}, ""},
		{"paper poly", []string{"--paper", "--kernel", "poly:3"}, func(c passgpfast.Config) bool { return c.Kernel == "poly" && c.Degree == 3 }, ""},
		{"paper fpassgp", []string{"--paper", "--method", "fpassgp", "--max-active", "40"}, func(c passgpfast.Config) bool { return c.M == 40 && c.MaxActive == 0 }, ""},
		{"paper budget", []string{"--paper", "--max-active", "40"}, nil, "--paper"},
		{"poly", []string{"--kernel", "poly"}, func(c passgpfast.Config) bool { return c.Kernel == "poly" && c.Degree == 9 && c.Gamma == 0 }, ""},
		{"poly degree gamma", []string{"--kernel", "poly:2:0.5"}, func(c passgpfast.Config) bool { return c.Degree == 2 && c.Gamma == 0.5 }, ""},
		{"poly degree 0", []string{"--kernel", "poly:0"}, nil, `--kernel "poly:0"`},
		{"poly bad gamma", []string{"--kernel", "poly:3:-1"}, nil, `--kernel "poly:3:-1"`},
		{"poly too many", []string{"--kernel", "poly:3:1:2"}, nil, "poly:DEGREE[:GAMMA]"},
		{"se degree", []string{"--kernel", "se:3"}, nil, "poly:DEGREE[:GAMMA]"},
	} {
		fs := newFlags("train", "", "")
		var tf trainFlags
		tf.register(fs)
		if err := fs.Parse(append([]string{"--data", "d.libsvm", "--model", "m.pgp"}, c.args...)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err := tf.checkFlags()
		switch {
		case c.err != "":
			if _, ok := err.(*usageError); !ok || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want a usage error naming %s", c.name, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.check(tf.cfg):
			t.Errorf("%s: config %+v", c.name, tf.cfg)
		}
	}
}

// TestDataURI: a data argument is a path with XGBoost's URI options
// after '?'; a path without them is the file with the defaults, and an
// unknown, repeated or bad option is an error naming it.
func TestDataURI(t *testing.T) {
	for _, c := range []struct {
		arg, path, format string
		labelCol          int
		err               string
	}{
		{"train.libsvm", "train.libsvm", "auto", 0, ""},
		{"train.csv?format=csv&label_column=0", "train.csv", "csv", 0, ""},
		{"train.csv?label_column=-1", "train.csv", "auto", -1, ""},
		{"d/x.pgd?format=binary", "d/x.pgd", "binary", 0, ""},
		{"train.csv?format=parquet", "", "", 0, "format"},
		{"train.csv?label_column=first", "", "", 0, "label_column"},
		{"train.csv?label=0", "", "", 0, `unknown option "label"`},
		{"train.csv?format=csv&format=libsvm", "", "", 0, "format given 2 times"},
		{"?format=csv", "", "", 0, "no file name"},
	} {
		var u dataURI
		err := u.Set(c.arg)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.arg, err, c.err)
			}
			continue
		}
		if err != nil || u.path != c.path || u.format != c.format || u.labelCol != c.labelCol {
			t.Errorf("%q: %+v, %v; want %s %s %d", c.arg, u, err, c.path, c.format, c.labelCol)
		}
		var back dataURI
		if err := back.Set(u.String()); err != nil || back != u {
			t.Errorf("%q: String %q reads back as %+v, %v", c.arg, u.String(), back, err)
		}
	}
	// The command line's error names the argument, on one line.
	code, _, e := runCLI(t, "predict", "--model", "m.pgp", "--data", "x.csv?labels=1")
	if code != 2 || strings.Count(e, "\n") != 1 || !strings.Contains(e, `"x.csv?labels=1"`) || !strings.Contains(e, "-data") {
		t.Errorf("bad data URI: code %d, %q", code, e)
	}
}

// TestShellWord: a plain path stays as it is; anything else is quoted so
// that a POSIX shell reads it back as one word.
func TestShellWord(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"data/train.pgd", "data/train.pgd"},
		{"train.csv?format=csv&label_column=-1", "'train.csv?format=csv&label_column=-1'"},
		{"it's here", `'it'\''s here'`},
		{"", "''"},
	} {
		if got := shellWord(c.in); got != c.want {
			t.Errorf("shellWord(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
