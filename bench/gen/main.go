// Command gen writes a seeded synthetic classification task (package
// synth) in LIBSVM format and prints its Bayes error, streaming the rows,
// so N = 1e7 needs no more memory than one row:
//
//	go run ./bench/gen --n 10000 --d 20 --relevant 5 --flip 0.05 --seed 1 --out train.libsvm
//	go run ./bench/gen --n 10000 --d 20 --relevant 5 --flip 0.05 --seed 2 --out test.libsvm
//
// Use different seeds for the training and test files. --pos sets the
// positive rate of a binary task, --priors the class priors of any task.
// --shape xor, circle or parabola writes a binary task separated by that
// curve in the first two of the --d features instead (synth.Shape; --flip
// applies, the other Task flags do not):
//
//	go run ./bench/gen --shape xor --n 5000 --d 12 --seed 1 --out train.libsvm
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/synth"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t synth.Task
	n := fs.Int("n", 10000, "number of rows")
	fs.IntVar(&t.D, "d", 20, "number of features")
	fs.IntVar(&t.Relevant, "relevant", 5, "number of relevant features (the first ones)")
	fs.IntVar(&t.Classes, "classes", 2, "number of classes (2: labels -1/+1, else 0..K-1)")
	fs.Float64Var(&t.Sep, "sep", 3, "distance of each class mean from the origin")
	fs.Float64Var(&t.Flip, "flip", 0, "label-flip rate")
	pos := fs.Float64("pos", 0, "positive rate of a binary task (0: balanced)")
	priors := fs.String("priors", "", "class priors `p0,p1,...` (normalised)")
	seed := fs.Uint64("seed", 1, "random seed")
	out := fs.String("out", "-", "output `FILE` (- for stdout)")
	shape := fs.String("shape", "", "xor, circle or parabola: a binary task separated by that curve in the first two features (synth.Shape)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 0 {
		return fmt.Errorf("--n = %d", *n)
	}
	switch {
	case *priors != "" && *pos != 0:
		return fmt.Errorf("--pos and --priors exclude each other")
	case *pos != 0:
		if t.Classes != 2 || !(*pos > 0 && *pos < 1) {
			return fmt.Errorf("--pos needs a binary task and a rate in (0, 1), got %v", *pos)
		}
		t.Priors = []float64{1 - *pos, *pos}
	case *priors != "":
		for _, f := range strings.Split(*priors, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				return fmt.Errorf("--priors: %v", err)
			}
			t.Priors = append(t.Priors, v)
		}
	}
	var noisy, clean float64
	var err error
	write := func(w io.Writer) error { return synth.WriteLIBSVM(w, t, *n, *seed) }
	if *shape != "" {
		s := synth.Shape{Kind: *shape, D: t.D, Flip: t.Flip}
		if err := s.Validate(); err != nil {
			return err
		}
		noisy, t.Relevant, t.Classes = s.Flip, 2, 2
		write = func(w io.Writer) error { return synth.WriteShapeLIBSVM(w, s, *n, *seed) }
	} else if noisy, clean, err = t.BayesError(); err != nil {
		return err
	}
	if strings.HasSuffix(*out, ".pgd") {
		// A binary data file, generated as it is written: for data sets
		// larger than memory.
		if *shape != "" {
			return fmt.Errorf("--out %s: binary output is for the Gaussian tasks, not --shape", *out)
		}
		src, err := synth.NewSource(t, *n, *seed)
		if err != nil {
			return err
		}
		if err := data.WriteBinary(context.Background(), *out, src, data.WriteOptions{}); err != nil {
			return err
		}
		return report(stderr, t, *n, *seed, noisy, clean)
	}
	w := stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if err := write(w); err != nil {
		return err
	}
	if f, ok := w.(*os.File); ok && w != stdout {
		if err := f.Close(); err != nil {
			return err
		}
	}
	return report(stderr, t, *n, *seed, noisy, clean)
}

func report(stderr io.Writer, t synth.Task, n int, seed uint64, noisy, clean float64) error {
	_, err := fmt.Fprintf(stderr, "wrote %d rows (d = %d, %d relevant, %d classes, flip %g, seed %d); Bayes error %.4f against the written labels, %.4f against the true classes\n",
		n, t.D, t.Relevant, t.Classes, t.Flip, seed, noisy, clean)
	return err
}
