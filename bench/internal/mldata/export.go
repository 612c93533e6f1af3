package mldata

import (
	"context"
	"fmt"
	"os/exec"
)

// Sets are the mlbench classification sets with numeric (or 0/1)
// features, from 146 to 40,600 training points and 2 to 26 classes.
var Sets = []string{"Sonar", "Ionosphere", "Glass", "BreastCancer", "PimaIndiansDiabetes", "Vehicle", "Vowel", "DNA", "Satellite", "LetterRecognition", "Shuttle"}

// TestShare is the share of every class that goes to the test split.
const TestShare = 0.3

// Available reports whether Rscript is on PATH (Export also needs R's
// mlbench package).
func Available() bool {
	_, err := exec.LookPath("Rscript")
	return err == nil
}

// Export writes mlbench's data set name as CSV (R's write.csv) to path.
func Export(ctx context.Context, name, path string) error {
	script := fmt.Sprintf(`suppressMessages(library(mlbench)); data(%q, package = "mlbench"); write.csv(get(%q), %q, row.names = FALSE)`, name, name, path)
	if b, err := exec.CommandContext(ctx, "Rscript", "-e", script).CombinedOutput(); err != nil {
		return fmt.Errorf("%s: Rscript: %v: %s", name, err, tail(string(b), 400))
	}
	return nil
}

// tail returns the last n bytes of s, marked with "..." when cut.
func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
