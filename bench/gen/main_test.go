package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.libsvm")
	var e bytes.Buffer
	if err := run([]string{"--n", "50", "--d", "7", "--relevant", "3", "--flip", "0.05", "--pos", "0.2", "--out", p}, nil, &e); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 50 || strings.Count(lines[0], ":") != 7 || !strings.Contains(e.String(), "Bayes error") {
		t.Errorf("%d lines, first %q, stderr %q", len(lines), lines[0], e.String())
	}
	for _, bad := range [][]string{{"--pos", "2"}, {"--classes", "3", "--pos", "0.1"}, {"--flip", "0.6"}, {"--priors", "1,x"}, {"--n", "-1"}} {
		if err := run(append(bad, "--out", p), nil, &e); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	if err := run([]string{"--shape", "circle", "--n", "20", "--d", "4", "--flip", "0.1", "--out", p}, nil, &e); err != nil {
		t.Fatal(err)
	}
	if b, err = os.ReadFile(p); err != nil || strings.Count(string(b), "\n") != 20 || !strings.Contains(e.String(), "Bayes error 0.1000") {
		t.Errorf("shape: %v, %q, stderr %q", err, b, e.String())
	}
	if err := run([]string{"--shape", "spiral", "--out", p}, nil, &e); err == nil {
		t.Error("--shape spiral: no error")
	}
}
