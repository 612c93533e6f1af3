package passgpfast

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
	"github.com/passgp-fast/passgp-fast/synth"
)

// TestFitScalesACopy: data far from a unit scale get train's minmax map
// (stored in the model and applied to every input predicted), Fit leaves
// the caller's matrix as it was, the stored configuration holds the
// budget and N_init resolved, and the file written by SaveFile loads
// into a classifier that predicts bit for bit the same (one path twice).
func TestFitScalesACopy(t *testing.T) {
	ds, err := synth.Dataset(synth.Task{Classes: 2, D: 3}, 120, 7)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ds.X {
		ds.X[i] *= 300 // far from a unit scale
	}
	x := mat.DenseCopyOf(ds.Dense())
	before := mat.DenseCopyOf(x)
	clf, err := Fit(context.Background(), x, ds.Y, WithSeed(3), WithThreads(1), WithSchedule(0, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(x, before) {
		t.Error("Fit changed its input matrix")
	}
	if clf.Model().Scaling == nil {
		t.Fatal("no scaling for data on a scale of hundreds")
	}
	var cfg Config
	if est, ok := clf.HeldOut(); !ok || est.N != 120 {
		t.Errorf("held-out estimate %+v, %v", est, ok)
	}
	path := filepath.Join(t.TempDir(), "m.pgp")
	if err := clf.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadFile(path, model.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := jsonConfig(loaded, &cfg); err != nil || cfg.Scale != "minmax" || cfg.Kernel != "" || cfg.MaxActive != passgp.SqrtBudget(120) || cfg.Init != 66 {
		t.Errorf("stored configuration %+v, %v: want minmax scaling, the budget 12·√120 = 132 and N_init 66 resolved", cfg, err)
	}
	a, err := clf.Predict(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	b, err := loaded.Predict(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a.Prob, b.Prob) || !mat.Equal(a.Z, b.Z) {
		t.Error("the loaded classifier predicts differently")
	}
	mean, variance := mat.NewDense(120, 1, nil), mat.NewDense(120, 1, nil)
	loaded.LatentMeanVarTo(mean, variance, x)
	for i := range 120 {
		if v := variance.At(i, 0); !(v >= 0) {
			t.Fatalf("row %d: latent variance %v", i, v)
		}
	}
}

// TestFitConfigErrors: invalid configurations are *ConfigError naming
// the setting.
func TestFitConfigErrors(t *testing.T) {
	ds, err := synth.Dataset(synth.Task{Classes: 2, D: 3}, 40, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opt  Option
	}{
		{"method", WithMethod("svm")},
		{"kernel", WithKernel("rbf")},
		{"theta", WithKernel("se", 1, 2)},
		{"scale", WithScale("log")},
		{"init", WithSchedule(-1, 3, 1)},
	} {
		_, err := FitDataset(context.Background(), ds, c.opt)
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%s: error %v, want a *ConfigError", c.name, err)
		}
	}
}

func jsonConfig(c *Classifier, cfg *Config) error { return json.Unmarshal(c.Model().Options, cfg) }

// TestConfigOldFields: the stored options of a model or checkpoint
// written when train had more settings (sample_theta, fitc_fallback,
// keep_init, fitc_theta, final_subset, skip_stalled, restart_stalled,
// rank, p_skip, prior, flip, fitc_sample, fitc_bound_search, fitc)
// still decode, to the configuration without them, and resolve to the
// same passgp options.
func TestConfigOldFields(t *testing.T) {
	const base = `{"method":"passgp","kernel":"se+bias","init":300,"sub":10,"p_inc":0.6,"p_del":0.99,"p_exc":0.02,"hyp_every":1,"fitc_bound":300,"seed":1,"max_active":120,"n":400,"d":4`
	const old = `,"sample_theta":true,"fitc_fallback":true,"keep_init":true,"fitc_theta":"keep","final_subset":800,"skip_stalled":1000,"restart_stalled":1,"rank":"lowest","p_skip":0.3,"prior":[{"Mean":1,"SD":2},{"Mean":0,"SD":0},{"Mean":0,"SD":0},{"Mean":0,"SD":0}],"flip":0.05,"fitc_sample":400,"fitc_bound_search":true,"fitc":true`
	var want, got Config
	if err := json.Unmarshal([]byte(base+"}"), &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(base+old+"}"), &got); err != nil {
		t.Fatalf("old options: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("old options decode to %+v, want %+v", got, want)
	}
	wo, err := want.Options(4)
	if err != nil {
		t.Fatal(err)
	}
	gotO, err := got.Options(4)
	if err != nil {
		t.Fatalf("old options do not resolve: %v", err)
	}
	if !reflect.DeepEqual(gotO, wo) {
		t.Errorf("old options resolve to %+v, want %+v", gotO, wo)
	}
}
