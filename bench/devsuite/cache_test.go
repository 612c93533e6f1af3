package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestFoldCache checks that a run is found again under the same binary,
// flags and files, and under no other.
func TestFoldCache(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	binA, binB := write("a", "binary a"), write("b", "binary b")
	tr, te, te2 := write("train", "1 1:0\n"), write("test", "-1 1:1\n"), write("test2", "-1 1:2\n")
	c := newFoldCache(filepath.Join(dir, "work"))
	k := c.key(binA, []string{"--method", "ivm"}, tr, te)
	if k == "" {
		t.Fatal("no key for readable files")
	}
	if _, ok := c.get(k); ok {
		t.Fatal("hit in an empty cache")
	}
	h := 0.125
	want := cachedRun{Seconds: 1.5, HeldOut: &h, Predict: "predicted,p_-1,p_1\n1,0.2,0.8\n"}
	c.put(k, want)
	if got, ok := newFoldCache(filepath.Join(dir, "work")).get(k); !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("get after put = %+v, %v; want %+v", got, ok, want)
	}
	old := want
	old.HeldOut = nil // an entry written before the estimate was kept
	c.put(k, old)
	if _, ok := c.get(k); ok {
		t.Error("an entry without the held-out estimate is reused")
	}
	for name, other := range map[string]string{
		"binary": c.key(binB, []string{"--method", "ivm"}, tr, te),
		"flags":  c.key(binA, []string{"--method"}, tr, te),
		"split":  c.key(binA, []string{"--method ivm"}, tr, te),
		"test":   c.key(binA, []string{"--method", "ivm"}, tr, te2),
	} {
		if other == k {
			t.Errorf("another %s gives the same key", name)
		}
	}
	if c.key(filepath.Join(dir, "absent"), nil, tr, te) != "" {
		t.Error("a key for an absent binary")
	}
	var nilCache *foldCache
	if nilCache.key(binA, nil, tr, te) != "" {
		t.Error("a nil cache gives a key")
	}
}

// TestSuiteCache: a second run of the suite with the same --cache reuses
// every run of the first (the cache directory gains nothing) and reports
// the same figures.
func TestSuiteCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and trains 2 models")
	}
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	report := func(name string) []SetResult {
		rep, _ := runReport(t, filepath.Join(dir, name+".json"), "--sets", "gen-noise", "--quick", "--k", "2",
			"--candidate", "--kernel se", "--cache", cache, "--data-dir", dir)
		return rep.Sets
	}
	first := report("a")
	entries, err := os.ReadDir(cache)
	if err != nil || len(entries) != 4 {
		t.Fatalf("cache holds %d entries (%v), want 4 (2 columns × 2 folds)", len(entries), err)
	}
	second := report("b")
	if again, _ := os.ReadDir(cache); len(again) != len(entries) {
		t.Errorf("the second run added %d cache entries", len(again)-len(entries))
	}
	if !reflect.DeepEqual(first, second) {
		t.Error("the second run's report differs from the first's")
	}
}
