package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/passgp-fast/passgp-fast/bench/internal/mldata"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/synth"
)

// errAbsent wraps the reason a set's data are not on this machine: the
// suite skips such a set and says so.
var errAbsent = errors.New("data absent")

// genTask is a Gaussian-class task of package synth, n points from
// genSeed (quick of them in the --quick suite).
func genTask(name, about string, t synth.Task, n, quick int) Set {
	return Set{Name: name, About: about, QuickSub: quick,
		Source: fmt.Sprintf("synth.Task K=%d D=%d R=%d sep=%g flip=%g priors=%v, %d points, seed %d", max(t.Classes, 2), t.D, t.Relevant, t.Sep, t.Flip, t.Priors, n, genSeed),
		load: func(context.Context, *env) (*data.Dataset, error) {
			return synth.Dataset(t, n, genSeed)
		}}
}

// genShape is a curved-boundary task of package synth (labels ±1).
func genShape(name string, s synth.Shape, n, quick int) Set {
	return Set{Name: name, QuickSub: quick,
		About:  fmt.Sprintf("binary, %s boundary in 2 of %d features, %g flips", s.Kind, s.D, s.Flip),
		Source: fmt.Sprintf("synth.Shape %s D=%d flip=%g, %d points, seed %d", s.Kind, s.D, s.Flip, n, genSeed),
		load: func(context.Context, *env) (*data.Dataset, error) {
			g, err := synth.NewShapeGenerator(s, genSeed)
			if err != nil {
				return nil, err
			}
			ds := &data.Dataset{X: make([]float64, n*s.D), N: n, D: s.D, Y: make([]float64, n), Source: name}
			for i := range n {
				_, o := g.Next(ds.Row(i))
				ds.Y[i] = float64(2*o - 1)
			}
			return ds, nil
		}}
}

// mlbenchSet is the training part of an mlbench set: bench/mlbench's
// 70/30 class-stratified split with seed 1, so the suite never sees the
// test part that bench/mlbench reports. The CSV comes from --mlbench-dir
// (NAME.csv, R's write.csv) or, failing that, from Rscript.
func mlbenchSet(name string, sub, quick int) Set {
	return Set{Name: name, About: "UCI set of R's mlbench, training part (70%)", Sub: sub, QuickSub: quick,
		Source: "R mlbench " + name + ", bench/mlbench's training split (seed 1)",
		load: func(ctx context.Context, e *env) (*data.Dataset, error) {
			p, err := mlbenchCSV(ctx, e, name)
			if err != nil {
				return nil, err
			}
			t, err := mldata.ReadCSV(p, name)
			if err != nil {
				return nil, err
			}
			tr, _ := t.Split(1, mldata.TestShare)
			ds := &data.Dataset{X: make([]float64, 0, len(tr)*t.D), N: len(tr), D: t.D, Y: make([]float64, len(tr)), Source: p}
			for i, r := range tr {
				ds.X = append(ds.X, t.Rows[r]...)
				ds.Y[i] = float64(t.Class[r])
			}
			return ds, nil
		}}
}

// mlbenchCSV returns the path of name's CSV: --mlbench-dir's if there,
// else one exported by Rscript into the scratch directory.
func mlbenchCSV(ctx context.Context, e *env, name string) (string, error) {
	if e.mlbenchDir != "" {
		p := filepath.Join(e.mlbenchDir, name+".csv")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if !mldata.Available() {
		return "", fmt.Errorf("%w: no %s.csv in --mlbench-dir and no Rscript (apt-get install r-cran-mlbench)", errAbsent, name)
	}
	p := filepath.Join(e.work, name+".csv")
	if err := mldata.Export(ctx, name, p); err != nil {
		return "", fmt.Errorf("%w: %v", errAbsent, err)
	}
	return p, nil
}

// sharedSet is a training file of --data-dir (../shared/data/README.md).
func sharedSet(name, about, file string, sub, quick int, optIn bool) Set {
	return Set{Name: name, About: about, Sub: sub, QuickSub: quick, OptIn: optIn,
		Source: file + " (training set)",
		load: func(_ context.Context, e *env) (*data.Dataset, error) {
			p := filepath.Join(e.dataDir, file)
			if _, err := os.Stat(p); err != nil {
				return nil, fmt.Errorf("%w: %v", errAbsent, err)
			}
			return data.Load(p, data.Options{})
		}}
}
