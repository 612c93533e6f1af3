package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/passgp-fast/passgp-fast/bench/internal/libsvm"
)

// buildCLI builds cmd/passgp-fast into dir (by import path, so from
// anywhere inside the module) and returns the binary's path.
func buildCLI(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "passgp-fast")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/passgp-fast/passgp-fast/cmd/passgp-fast")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the CLI: %v\n%s", err, b)
	}
	return bin, nil
}

// runPassGP runs `train --quiet --data trainF --model M` with args
// appended (timed by wall clock; its held-out estimate kept), then
// `predict` on testF, and scores the predicted probabilities against
// truth (scorePredictions).
func runPassGP(ctx context.Context, cache *foldCache, bin, dir, trainF, testF string, args []string, truth []float64) (Fold, error) {
	var f Fold
	key := cache.key(bin, args, trainF, testF)
	run, ok := cache.get(key)
	if !ok {
		m := filepath.Join(dir, "model.pgp")
		os.Remove(m) // a failed train must not leave the last fold's model to predict with
		var tr, out strings.Builder
		el, _, err := libsvm.Timed(ctx, &tr, bin, append([]string{"train", "--quiet", "--data", trainF, "--model", m}, args...)...)
		if err != nil {
			return f, err
		}
		if _, _, err := libsvm.Timed(ctx, &out, bin, "predict", "--model", m, "--data", testF); err != nil {
			return f, err
		}
		h := libsvm.HeldOutError(tr.String())
		run = cachedRun{Seconds: el.Seconds(), HeldOut: &h, Predict: out.String()}
		cache.put(key, run)
	}
	f.Seconds, f.HeldOut = run.Seconds, *run.HeldOut
	var err error
	if f.errs, f.briers, f.nlps, err = scorePredictions(strings.NewReader(run.Predict), "predict "+testF, truth); err != nil {
		return f, err
	}
	f.Error, f.Brier, f.NLP = meanSE(f.errs).Mean, meanSE(f.briers).Mean, meanSE(f.nlps).Mean
	return f, nil
}

// scorePredictions reads predict's CSV (header predicted,p_<label>,...;
// one row per point) and returns per point the 0/1 error of the
// predicted class, the Brier score Σ_c (p_c − [y = c])² and the negative
// log probability of the true class −log max(p_y, 1e-300), as eval
// clamps them (calib.MeanNLP); labels compare as numbers.
func scorePredictions(r io.Reader, name string, truth []float64) (errs, briers, nlps []float64, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	if !sc.Scan() {
		return nil, nil, nil, fmt.Errorf("%s: no header (%v)", name, sc.Err())
	}
	hdr := strings.Split(sc.Text(), ",")
	if len(hdr) < 3 || hdr[0] != "predicted" {
		return nil, nil, nil, fmt.Errorf("%s line 1: header %q, want predicted,p_<label>,...", name, sc.Text())
	}
	labels := make([]float64, len(hdr)-1)
	for j, h := range hdr[1:] {
		v, err := strconv.ParseFloat(strings.TrimPrefix(h, "p_"), 64)
		if err != nil || !strings.HasPrefix(h, "p_") {
			return nil, nil, nil, fmt.Errorf("%s line 1: column %q, want p_<label>", name, h)
		}
		labels[j] = v
	}
	p := make([]float64, len(labels))
	for i := 0; sc.Scan(); i++ {
		line := i + 2
		if i >= len(truth) {
			return nil, nil, nil, fmt.Errorf("%s line %d: more rows than the %d test points", name, line, len(truth))
		}
		fl := strings.Split(sc.Text(), ",")
		if len(fl) != len(hdr) {
			return nil, nil, nil, fmt.Errorf("%s line %d: %d fields, want %d", name, line, len(fl), len(hdr))
		}
		pred, err := strconv.ParseFloat(fl[0], 64)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s line %d: predicted class %q: %v", name, line, fl[0], err)
		}
		t := -1
		for j := range p {
			if p[j], err = strconv.ParseFloat(fl[1+j], 64); err != nil || !(p[j] >= 0 && p[j] <= 1) {
				return nil, nil, nil, fmt.Errorf("%s line %d: probability %q is not in [0, 1]", name, line, fl[1+j])
			}
			if labels[j] == truth[i] {
				t = j
			}
		}
		if t < 0 {
			return nil, nil, nil, fmt.Errorf("%s line %d: true label %v is not among the model's %v", name, line, truth[i], labels)
		}
		e, b := 0.0, 0.0
		if pred != truth[i] {
			e = 1
		}
		for j, v := range p {
			if j == t {
				v--
			}
			b += v * v
		}
		errs, briers = append(errs, e), append(briers, b)
		nlps = append(nlps, -math.Log(math.Max(p[t], 1e-300)))
	}
	if err := sc.Err(); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(errs) != len(truth) {
		return nil, nil, nil, fmt.Errorf("%s: %d rows for %d test points", name, len(errs), len(truth))
	}
	return errs, briers, nlps, nil
}
