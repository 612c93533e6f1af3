package main

import (
	"fmt"
	"io"

	passgpfast "github.com/passgp-fast/passgp-fast"
)

// printMetrics writes the human-readable report of r.
func printMetrics(w io.Writer, r *passgpfast.Metrics) {
	fmt.Fprintf(w, "test points            %d\n", r.N)
	fmt.Fprintf(w, "test error             %.4f (%.2f%%)\n", r.Error, 100*r.Error)
	fmt.Fprintf(w, "Brier score            %.4f\n", r.Brier)
	fmt.Fprintf(w, "mean neg. log pred.    %.4f\n", r.NLP)
	cal := "calibrated"
	if !r.Calibrated {
		cal = "raw q"
	}
	fmt.Fprintf(w, "ECE (15 bins)          %.4f (%s probabilities)\n", r.ECE, cal)
	fmt.Fprintf(w, "\nper class:\n  %-8s %8s %10s", "class", "n", "error")
	if r.BinaryError != nil {
		fmt.Fprintf(w, " %12s %8s %8s", "1-vs-rest", "Brier", "NLP")
	}
	fmt.Fprintf(w, " %8s\n", "|A|")
	for c, name := range r.Classes {
		fmt.Fprintf(w, "  %-8s %8d %9.2f%%", name, r.PerClassN[c], 100*r.PerClassError[c])
		if r.BinaryError != nil {
			fmt.Fprintf(w, " %11.2f%% %8.4f %8.4f", 100*r.BinaryError[c], r.BinaryBrier[c], r.BinaryNLP[c])
		}
		switch {
		case c < len(r.ActiveSize) && len(r.ActiveSize) == len(r.Classes):
			fmt.Fprintf(w, " %8d", r.ActiveSize[c])
		case c == len(r.Classes)-1 && len(r.ActiveSize) == 1:
			fmt.Fprintf(w, " %8d", r.ActiveSize[0])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nconfusion matrix (rows: true class, columns: predicted):\n%8s", "")
	for _, name := range r.Classes {
		fmt.Fprintf(w, " %7s", name)
	}
	fmt.Fprintln(w)
	for t, row := range r.Confusion {
		fmt.Fprintf(w, "%8s", r.Classes[t])
		for _, v := range row {
			fmt.Fprintf(w, " %7d", v)
		}
		fmt.Fprintln(w)
	}
}
