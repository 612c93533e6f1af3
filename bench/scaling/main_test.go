package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/passgp-fast/passgp-fast/synth"
)

// TestWrite: the report files are written and the table has a row per run.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	runs := []Run{{Tool: "passgp-fast", N: 1000, Seconds: 1.5, Active: 100, Error: 0.07},
		{Tool: "libsvm", N: 1000, Seconds: 2, GridSeconds: 1, Active: 300, Error: 0.068},
		{Tool: "passgp-fast", N: 10000, Seconds: 9, Active: 900, Error: 0.069},
		{Tool: "libsvm", N: 10000, Seconds: 900, Note: "did not finish"}}
	if err := write(dir, synth.Task{D: 20, Relevant: 5, Flip: 0.05}, 0.065, runs); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "scaling.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(md), "\n| ") != 1+len(runs) || !strings.Contains(string(md), "did not finish") {
		t.Errorf("table:\n%s", md)
	}
	if fi, err := os.Stat(filepath.Join(dir, "scaling.png")); err != nil || fi.Size() == 0 {
		t.Errorf("plot: %v", err)
	}
}
