package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// write writes results.json and results.md to dir.
func write(dir string, res []Result) error {
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	var s strings.Builder
	s.WriteString("| data | train / test, d, classes | splits | passgp-fast: error, Brier, NLP, ECE | time (s) | `--scale auto` chose | held-out estimate (splits within 2 SE of the test error) | LIBSVM: error, Brier, NLP, ECE | time (s): grid + training |\n")
	s.WriteString("|---|---|---:|---|---:|---|---|---|---:|\n")
	fig := func(r, sd Run) string {
		if sd.Error == 0 && sd.Brier == 0 {
			return fmt.Sprintf("%.2f%%, %.4f, %.3f, %.1f%%", 100*r.Error, r.Brier, r.NLP, 100*r.ECE)
		}
		return fmt.Sprintf("%.2f ± %.2f%%, %.4f ± %.4f, %.3f, %.1f%%", 100*r.Error, 100*sd.Error, r.Brier, sd.Brier, r.NLP, 100*r.ECE)
	}
	for _, r := range res {
		svm, svmT := "not run", ""
		if r.SVM.Setting != "" {
			svm, svmT = fig(r.SVM, r.SVMSD), fmt.Sprintf("%.1f + %.1f", r.SVM.GridSeconds, r.SVM.Seconds-r.SVM.GridSeconds)
		}
		fmt.Fprintf(&s, "| %s | %d / %d, %d, %d | %d | %s | %.1f | %s | %.2f%% (%d/%d) | %s | %s |\n", r.Set, r.Train, r.Test, r.D, r.K, r.Reps,
			fig(r.PassGP, r.PassGPSD), r.PassGP.Seconds, r.Scale, 100*r.PassGP.HeldOut, r.PassGP.Within, r.Reps, svm, svmT)
	}
	return os.WriteFile(filepath.Join(dir, "results.md"), []byte(s.String()), 0o644)
}
