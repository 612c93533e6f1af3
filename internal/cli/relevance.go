package cli

import (
	"fmt"
	"io"

	passgpfast "github.com/passgp-fast/passgp-fast"
)

// relevanceTop is how many features train's relevance block lists.
const relevanceTop = 10

// ignoredFrac is the relevance, relative to the largest, below which
// train counts a feature as ignored: a length scale 10 times the most
// relevant feature's or more, over which the kernel barely changes.
const ignoredFrac = 0.01

// printRelevance writes the "feature relevance" block of an ARD model
// (passgpfast.Relevances): the most relevant features, most relevant
// first, and how many the kernel effectively ignores. Nothing for other
// kernels.
func printRelevance(w io.Writer, clf *passgpfast.Classifier) {
	r, ok := clf.Relevances()
	if !ok {
		return
	}
	space := "unscaled inputs"
	if r.Scale != "" {
		space = r.Scale + "-scaled inputs"
	}
	what := "normalised to the most relevant feature"
	if len(r.Raw) > 1 {
		what = fmt.Sprintf("mean over the %d classifiers, each normalised to its most relevant feature", len(r.Raw))
	}
	fmt.Fprintf(w, "\nfeature relevance (ARD: 1/lengthscale^2 in the %s,\n  %s;\n", space, what)
	fmt.Fprintln(w, "  features numbered from 1: LIBSVM index, CSV column without the label, IDX pixel)")
	fmt.Fprintf(w, "  %8s %10s\n", "feature", "relevance")
	rank := r.Ranked()
	for _, j := range rank[:min(relevanceTop, len(rank))] {
		fmt.Fprintf(w, "  %8d %10.4f\n", j+1, r.Mean[j])
	}
	fmt.Fprintf(w, "  %d of %d features below 1%% of the largest relevance (effectively ignored)\n", r.Ignored(ignoredFrac), len(r.Mean))
}
