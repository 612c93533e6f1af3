package cli

import (
	"context"
	"strings"
	"testing"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/synth"
)

// TestLibraryAugment: the invariance stage, which train has no flag for
// (bench/repro sets it), runs through the library call train makes, on
// the 4 features read as a square 2×2 image, with the shifted images
// among the active points and both stages' batches in the history; a
// non-square input, an unknown kind and an explicit scaling are
// configuration errors naming the option.
func TestLibraryAugment(t *testing.T) {
	cfg := passgpfast.DefaultConfig()
	cfg.Kernel, cfg.Theta, cfg.FixedTheta = "se", []float64{4, 2, 0.01}, true
	cfg.Init, cfg.Sub, cfg.Passes = 30, 3, 1
	square := synth.Bands(13, 160, 2, 4, synth.BandsNoise)
	odd := synth.Bands(11, 240, 3, 3, synth.BandsNoise)
	for _, c := range []struct {
		name, augment, scale string
		ds                   func() *data.Dataset
		err                  string
	}{
		{"shift4", "shift4", "auto", func() *data.Dataset { return square.Subset(seq(square.N)) }, ""},
		{"not square", "shift4", "auto", func() *data.Dataset { return odd.Subset(seq(odd.N)) }, "square"},
		{"bad kind", "rotate", "auto", func() *data.Dataset { return square.Subset(seq(square.N)) }, "Config.Augment"},
		{"explicit scaling", "shift4", "standard", func() *data.Dataset { return square.Subset(seq(square.N)) }, "Config.Augment"},
	} {
		cfg := cfg
		cfg.Augment, cfg.Scale = c.augment, c.scale
		ds := c.ds()
		ds.Source = c.name
		clf, err := passgpfast.FitDataset(context.Background(), ds, passgpfast.WithConfig(cfg), passgpfast.WithThreads(1))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one naming %s", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		mod := clf.Model()
		aug := 0
		for _, a := range mod.Binaries[0].Active {
			if a == -1 {
				aug++
			}
		}
		if aug == 0 {
			t.Errorf("%s: no shifted points among %d active", c.name, len(mod.Binaries[0].Active))
		}
		// Sub 3 batches × 1 pass in both stages.
		if got := len(mod.History[0]); got != 3+3 {
			t.Errorf("%s: %d batches in the history, want 3 + 3", c.name, got)
		}
	}
}
