package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// foldCache keeps, in the --cache directory, the output of every train
// and predict run of passgp-fast under a key of the binary's bytes, the
// flags and the fold's two files, so that a later run of the suite with
// the same --cache reruns only what changed: comparing several candidate
// builds (--candidate-bin) against one defaults column trains the
// defaults once. A reused run writes no model file.
type foldCache struct {
	dir  string
	bins map[string]string // binary path -> SHA-256 of its bytes
}

// cachedRun is what the cache keeps of one run: train's wall time, its
// held-out estimate of the error (-1: none printed) and predict's output.
// An entry without the estimate (an older cache's) is not reused.
type cachedRun struct {
	Seconds float64  `json:"seconds"`
	HeldOut *float64 `json:"held_out,omitempty"`
	Predict string   `json:"predict"`
}

func newFoldCache(dir string) *foldCache {
	return &foldCache{dir: dir, bins: map[string]string{}}
}

// key returns the cache key of a run, or "" when a file cannot be read
// (the run then goes uncached).
func (c *foldCache) key(bin string, args []string, trainF, testF string) string {
	if c == nil {
		return ""
	}
	bh, ok := c.bins[bin]
	if !ok {
		bh = fileHash(bin)
		c.bins[bin] = bh
	}
	th, vh := fileHash(trainF), fileHash(testF)
	if bh == "" || th == "" || vh == "" {
		return ""
	}
	h := sha256.Sum256([]byte(bh + "\x00" + strings.Join(args, "\x00") + "\x00" + th + "\x00" + vh))
	return hex.EncodeToString(h[:])
}

func (c *foldCache) get(key string) (cachedRun, bool) {
	var r cachedRun
	if key == "" {
		return r, false
	}
	b, err := os.ReadFile(filepath.Join(c.dir, key+".json"))
	if err != nil || json.Unmarshal(b, &r) != nil || r.HeldOut == nil {
		return r, false
	}
	return r, true
}

// put stores r under key; a failure only costs the reuse.
func (c *foldCache) put(key string, r cachedRun) {
	if key == "" || os.MkdirAll(c.dir, 0o755) != nil {
		return
	}
	b, err := json.Marshal(r)
	if err != nil {
		return
	}
	tmp := filepath.Join(c.dir, key+".tmp")
	if os.WriteFile(tmp, b, 0o644) == nil {
		os.Rename(tmp, filepath.Join(c.dir, key+".json"))
	}
}

// fileHash returns the hex SHA-256 of a file's bytes ("" if unreadable).
func fileHash(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
