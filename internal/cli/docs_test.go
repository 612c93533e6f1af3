package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// cliDoc renders docs/cli.md from the commands' --help texts.
func cliDoc() string {
	var b strings.Builder
	b.WriteString(cliDocHead)
	var o, e bytes.Buffer
	usage(&o)
	b.WriteString("```\n" + o.String() + "```\n")
	for _, c := range commands {
		o.Reset()
		runContext(context.Background(), []string{c.name, "--help"}, &o, &e)
		b.WriteString("\n## " + c.name + "\n\n```\n" + o.String() + "```\n")
		if ex, ok := cliExamples[c.name]; ok {
			b.WriteString("\nExample:\n\n```sh\n" + ex + "\n```\n")
		}
	}
	b.WriteString(cliDocTail)
	return b.String()
}

const cliDocHead = `# passgp-fast command line reference

Generated from the commands' ` + "`--help`" + ` output (regenerate with
` + "`UPDATE_DOCS=1 go test ./internal/cli -run TestCLIDoc`" + `; the test fails
when this page and the program disagree).

Conventions: flags may be written ` + "`--flag value`, `--flag=value` or `-flag value`" + `.
Exit status 0 on success, 1 for bad input data or a failed computation,
2 for a bad command line, 130 when training was interrupted (Ctrl-C).
Errors are one line on stderr naming the file and the problem. Progress
goes to stderr: a live line on a terminal, one log line per batch
otherwise; ` + "`--quiet`" + ` silences it. Numerical trouble that training worked
around is not silenced: ` + "`train`" + ` prints a ` + "`warning: classifier L: ...`" + ` line
when the hyperparameter search stopped at a bound (the evidence still
rising beyond it, e.g. the signal variance of a separable active set) or
when EP hit its sweep cap in some batches, on the final active set or in
runs of the hyperparameter search (the last iterate was used).

`

const cliDocTail = `
## Output formats

- ` + "`predict`" + ` CSV: header ` + "`predicted,p_<class>,...`" + `, one row per point;
  probabilities are written with full float64 precision.
- ` + "`eval --json`" + `: ` + "`n`, `error`, `brier`, `nlp`, `classes`, `per_class_error`,\n  `per_class_n`, `confusion` (rows true, columns predicted), `binary_error`" + `
  (one-vs-rest models: each classifier's error, the paper's per-digit
  error), ` + "`binary_brier`, `binary_nlp`" + ` (each classifier's own Brier score and
  NLP from its q(y=+1|x)) and ` + "`active_size`" + `. The multi-class ` + "`brier`" + ` and
  ` + "`nlp`" + ` use the one-vs-rest probabilities normalised over the classes.

## Interrupting and resuming training

Ctrl-C (SIGINT) or SIGTERM stops training before the next batch. With
` + "`--checkpoint FILE`" + ` the checkpoint (finished classifiers plus the
active set loop state of the current one) is written then, and also every
30 s during training; ` + "`train --resume FILE --data DATA --model OUT`" + `
continues with the training options stored in the checkpoint and gives the
same model as an uninterrupted run.
`

var cliExamples = map[string]string{
	"train": `# USPS, one classifier per digit, PASS-GP with the paper's settings
passgp-fast train --data ../shared/data/usps.train.bz2 --model usps.pgp --test ../shared/data/usps.test.bz2
# the paper's Algorithm 1 as published: SE kernel, no budget, no FITC pass
passgp-fast train --data ../shared/data/usps.train.bz2 --model usps-paper.pgp --paper
# MNIST (IDX; labels found next to the images), the paper's fPASS-GP alone, poly kernel p=9 on input scale 3/784
passgp-fast train --data train-images-idx3-ubyte.gz --model mnist.pgp --method fpassgp --max-active 2000 \
    --kernel poly:9:0.003827 --theta 1,0.01 --sub 100 --hyp-every 10
# IJCNN1, fPASS-GP with fixed theta = [1, 1/8, 1/16]
passgp-fast train --data ijcnn1.train.bz2 --model ijcnn.pgp --method fpassgp --max-active 500 --theta 1,0.125,0.0625 --hyp-every 0
# CSV with the label in the last column, trained on Apache Beam (passgp-fast-beam) from a binary data file
passgp-fast convert --data 'train.csv?label_column=-1' --out train.pgd
passgp-fast train --data train.pgd --model m.pgp --engine beam`,
	"predict": `passgp-fast predict --model usps.pgp --data ../shared/data/usps.test.bz2 --out usps-probs.csv`,
	"eval":    `passgp-fast eval --model usps.pgp --data ../shared/data/usps.test.bz2 --json`,
	"demo":    `passgp-fast demo --plots demo-figs`,
	"plot":    `passgp-fast plot --model usps.pgp --data ../shared/data/usps.test.bz2 --out figs`,
}

func TestCLIDoc(t *testing.T) {
	const path = "../../docs/cli.md"
	want := cliDoc()
	if os.Getenv("UPDATE_DOCS") != "" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("docs/cli.md is out of date: run UPDATE_DOCS=1 go test ./internal/cli -run TestCLIDoc")
	}
}
