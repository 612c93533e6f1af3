package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/passgp-fast/passgp-fast/data"
)

// column is one setting compared: train with extra flags Args (none:
// today's defaults), or LIBSVM's grid (libsvm.go).
type column struct {
	Name   string   `json:"name"`
	Args   []string `json:"train_flags"`
	LIBSVM bool     `json:"libsvm,omitempty"`
	// Bin, if set, is the passgp-fast binary of this column instead of
	// the suite's (--candidate-bin: a build of other code).
	Bin string `json:"binary,omitempty"`
}

// config is one run of the suite.
type config struct {
	k       int
	seed    uint64
	bin     string // the passgp-fast binary
	work    string // scratch directory
	env     env
	columns []column
	log     io.Writer
	cache   *foldCache // nil: no reuse (no --cache)
}

// Fold is one column's figures on one fold's test part.
type Fold struct {
	Train, Test        int
	Seconds            float64 // wall time of training (LIBSVM: grid and svm-train)
	Error, Brier, NLP  float64
	HeldOut            float64   // train's held-out estimate of the error (-1: none; LIBSVM)
	errs, briers, nlps []float64 // per test point (not LIBSVM)
}

// losses are per-point losses of the out-of-fold predictions, indexed
// by the point's position in the set's sample.
type losses struct{ err, brier, nlp []float64 }

// runSet runs every column on every fold of s and summarises them.
func runSet(ctx context.Context, cfg *config, s Set) (SetResult, error) {
	r := SetResult{Name: s.Name, About: s.About, Source: s.Source}
	ds, err := s.load(ctx, &cfg.env)
	if errors.Is(err, errAbsent) {
		r.Skipped = err.Error()
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("%s: %w", s.Name, err)
	}
	if ds.Y == nil {
		return r, fmt.Errorf("%s: %s has no labels", s.Name, ds.Source)
	}
	idx := subsample(ds.N, s.Sub, cfg.seed)
	idx, r.DroppedClasses = dropRare(ds.Y, idx, cfg.k)
	r.Available, r.N, r.D = ds.N, len(idx), ds.D
	r.K = len(data.Classes(pick(ds.Y, idx)))
	if r.K < 2 {
		return r, fmt.Errorf("%s: %d class(es) after dropping those with fewer than %d points", s.Name, r.K, cfg.k)
	}
	folds := stratifiedFolds(ds.Y, idx, cfg.k, cfg.seed)
	pos := make(map[int]int, len(idx))
	for p, i := range idx {
		pos[i] = p
	}
	dir := filepath.Join(cfg.work, s.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, err
	}
	pts := make([]losses, len(cfg.columns))
	runs := make([][]Fold, len(cfg.columns))
	for f, test := range folds {
		trainF, testF := filepath.Join(dir, "train.libsvm"), filepath.Join(dir, "test.libsvm")
		if err := writeFold(ds, complement(idx, test), test, trainF, testF); err != nil {
			return r, err
		}
		for c, col := range cfg.columns {
			fr, err := runColumn(ctx, cfg, col, dir, trainF, testF, pick(ds.Y, test), ds.D)
			if err != nil {
				return r, fmt.Errorf("%s fold %d, %s: %w", s.Name, f+1, col.Name, err)
			}
			fr.Train, fr.Test = len(idx)-len(test), len(test)
			runs[c] = append(runs[c], fr)
			pts[c].scatter(len(idx), test, pos, fr)
			fmt.Fprintf(cfg.log, "%s fold %d/%d %-10s error %.4f  Brier %.4f  NLP %.4f  %.1f s\n",
				s.Name, f+1, cfg.k, col.Name, fr.Error, fr.Brier, fr.NLP, fr.Seconds)
		}
	}
	r.summarise(cfg.columns, runs, pts)
	return r, nil
}

// writeFold writes a fold's training and test points.
func writeFold(ds *data.Dataset, train, test []int, trainF, testF string) error {
	if err := writeLIBSVM(trainF, ds, train); err != nil {
		return err
	}
	return writeLIBSVM(testF, ds, test)
}

// scatter files a fold's per-point losses under the points' positions.
func (l *losses) scatter(n int, test []int, pos map[int]int, f Fold) {
	if f.errs == nil {
		return
	}
	if l.err == nil {
		l.err, l.brier, l.nlp = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	for j, i := range test {
		p := pos[i]
		l.err[p], l.brier[p], l.nlp[p] = f.errs[j], f.briers[j], f.nlps[j]
	}
}

// runColumn trains and scores one column on one fold.
func runColumn(ctx context.Context, cfg *config, col column, dir, trainF, testF string, truth []float64, d int) (Fold, error) {
	if col.LIBSVM {
		return runSVM(ctx, dir, trainF, testF, d)
	}
	bin := cfg.bin
	if col.Bin != "" {
		bin = col.Bin
	}
	return runPassGP(ctx, cfg.cache, bin, dir, trainF, testF, col.Args, truth)
}

// pick returns y at idx.
func pick(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for j, i := range idx {
		out[j] = y[i]
	}
	return out
}
