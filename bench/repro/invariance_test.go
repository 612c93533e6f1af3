package main

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// bars returns n 6×6 images of three classes (a horizontal bar, a vertical
// bar, a diagonal) at random positions, with noise.
func bars(n int, rng *rand.Rand) *Dataset {
	const w = 6
	x := mat.NewDense(n, w*w, nil)
	y := make([]float64, n)
	for i := range n {
		c := i % 3
		y[i] = float64(c)
		o := 1 + rng.IntN(w-2)
		for j := range w {
			r, col := o, j
			switch c {
			case 1:
				r, col = j, o
			case 2:
				r, col = j, (j+o)%w
			}
			x.Set(i, r*w+col, 1)
		}
		for j := range w * w {
			x.Set(i, j, x.At(i, j)+0.3*rng.NormFloat64())
		}
	}
	return &Dataset{Name: "bars", X: x, Y: y, W: w, H: w}
}

// TestAugmentMultiReleasesModels: augmentMulti, which predicts with each
// class's second-stage model and then drops it, scores exactly as the
// kept models do, and records every class's |A| and time.
func TestAugmentMultiReleasesModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tr, te := bars(150, rng), bars(90, rng)
	o := passgp.Options{Kernel: kernel.SE{Var: 4, Len2: 8, Jitter: 1e-6}, FixedTheta: true, Sub: 3, Init: 10, Threads: 1}
	mr, err := passgp.TrainMulti(context.Background(), tr.X, tr.Y, &o)
	if err != nil {
		t.Fatal(err)
	}
	times := make([]float64, len(mr.PerClass))
	env := &Env{Cfg: &Config{Threads: 1}, Start: time.Now()}
	out := &multiRuns{Name: "test"}
	const seed = 7
	if err := augmentMulti(context.Background(), env, mr.Model, times, tr, te, out, 6, 6, 4, 0.9, 2, 1, seed); err != nil {
		t.Fatal(err)
	}
	kept := &passgp.MultiClass{Classes: mr.Model.Classes}
	var act []float64
	z := mat.NewDense(tr.N(), len(mr.Model.Classes), nil)
	rho := mat.NewDense(tr.N(), len(mr.Model.Classes), nil)
	for j, b := range mr.Model.Models {
		res, err := augmentStage(context.Background(), b, tr.X, binaryLabels(tr.Y, mr.Model.Classes[j]), 6, 6, 4, 0.9, 2, 1, seed, 1)
		if err != nil {
			t.Fatal(err)
		}
		kept.Models = append(kept.Models, res.Model)
		act = append(act, float64(len(res.Model.Active)))
		z.SetCol(j, res.HeldOut)
		rho.SetCol(j, res.HeldOutShare)
	}
	cal, err := calib.Fit(z, rho, classIndices(mr.Model.Classes, tr.Y))
	if err != nil {
		t.Fatal(err)
	}
	want := evalMulti(kept, cal, te)
	if len(out.CalBrier) != 1 || out.CalBrier[0] != want.Cal.Brier || out.CalErr[0] != 100*want.Cal.Error || out.CalNLP[0] != want.Cal.NLP {
		t.Errorf("calibrated Brier %v error %v NLP %v, want %v %v %v", out.CalBrier, out.CalErr, out.CalNLP, want.Cal.Brier, 100*want.Cal.Error, want.Cal.NLP)
	}
	if len(out.Multi) != 1 || out.Multi[0] != want.Err {
		t.Fatalf("multi-class error %v, want [%v]", out.Multi, want.Err)
	}
	for j := range act {
		if out.Act[0][j] != act[j] || out.Errs[0][j] != want.DigitErr[j] {
			t.Errorf("class %d: |A| %v error %v, want %v and %v", j, out.Act[0][j], out.Errs[0][j], act[j], want.DigitErr[j])
		}
		if !(act[j] > float64(len(mr.Model.Models[j].Y))) {
			t.Errorf("class %d: second stage added no shifted image (|A| %v)", j, act[j])
		}
	}
	if math.Abs(out.BrierM[0]-want.BrierMulti) > 1e-12 || out.Model != nil || len(out.Times[0]) != 3 {
		t.Errorf("Brier %v want %v; model kept: %v; times %v", out.BrierM[0], want.BrierMulti, out.Model != nil, out.Times[0])
	}
}
