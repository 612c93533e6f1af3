package main

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// augmentStage is the second stage of paper Section 6.3 for one trained
// binary classifier (passgp.TrainAugmented): the active images and their
// one-pixel translations form a new training set, and PASS-GP continues
// on it from the first stage's active set and sites with theta fixed and
// p_inc = pinc. One first-stage run thus serves both the tables without
// and with invariances.
//
// x and y (±1) are the first stage's training data: the result holds the
// held-out latents of every training point under the second-stage
// classifier, for the calibration.
func augmentStage(ctx context.Context, b *passgp.Binary, x *mat.Dense, y []float64, w, h, dirs int, pinc float64, sub, passes int, seed uint64, threads int) (*passgp.Result, error) {
	o := passgp.Options{Augment: &passgp.Augmentation{Shifts: dirs, ImageW: w, ImageH: h, PInc: pinc, Sub: sub, Passes: passes}, Seed: seed, Threads: threads}
	return passgp.TrainAugmented(ctx, b, x, y, &o)
}

// augmentMulti runs augmentStage for every class of a first-stage
// repetition and evaluates the combined classifier. Classes run one after
// the other with all threads (the augmented EP problems are large). Each
// class's model predicts the test set as soon as it is trained and is then
// released: the ten second-stage models hold about 8 GiB of Cholesky
// factors on MNIST, and keeping them would put the run over its memory
// bound while the largest digit trains. The multi-class calibration is
// fitted, as TrainMulti's, on the held-out latents of the training points
// tr (never on te).
func augmentMulti(ctx context.Context, env *Env, stage1 *passgp.MultiClass, stage1Times []float64, tr, te *Dataset, out *multiRuns,
	w, h, dirs int, pinc float64, sub, passes int, seed uint64) error {
	k := len(stage1.Models)
	mr := &passgp.MultiResult{PerClass: make([]*passgp.Result, k)}
	prob := mat.NewDense(te.N(), k, nil)
	zte, rte := mat.NewDense(te.N(), k, nil), mat.NewDense(te.N(), k, nil)
	ztr, rtr := mat.NewDense(tr.N(), k, nil), mat.NewDense(tr.N(), k, nil)
	col, share := make([]float64, te.N()), make([]float64, te.N())
	act := make([]float64, k)
	var predTime time.Duration
	start := time.Now()
	for j, b := range stage1.Models {
		env.logf("%s: class %v, %d active images x %d shifts", out.Name, stage1.Classes[j], len(b.Y), dirs)
		res, err := augmentStage(ctx, b, tr.X, binaryLabels(tr.Y, stage1.Classes[j]), w, h, dirs, pinc, sub, passes, seed, env.Cfg.Threads)
		if err != nil {
			out.PartialNote = partialNote(stage1.Classes, prob, act, mr, te, j, err)
			return err
		}
		res.Elapsed += time.Duration(stage1Times[j] * float64(time.Second))
		t := time.Now()
		res.Model.LatentShareTo(col, share, te.X)
		predTime += time.Since(t)
		zte.SetCol(j, col)
		rte.SetCol(j, share)
		for i, v := range col {
			prob.Set(i, j, ep.Phi(v))
		}
		ztr.SetCol(j, res.HeldOut)
		rtr.SetCol(j, res.HeldOutShare)
		act[j] = float64(len(res.Model.Active))
		res.Model, res.HeldOut, res.HeldOutShare = nil, nil, nil
		mr.PerClass[j] = res
		env.logf("%s: class %v done, |A| %d, %.1fs, %d held-out latents lost to rounding", out.Name, stage1.Classes[j], int(act[j]), res.Elapsed.Seconds(), res.HeldOutLost)
	}
	mr.Elapsed = time.Since(start)
	ev := scoreMulti(prob, stage1.Classes, te, predTime)
	cal, err := calib.Fit(ztr, rtr, classIndices(stage1.Classes, tr.Y))
	if err != nil {
		return err
	}
	ev.Cal = scoreCalibrated(cal, zte, rte, stage1.Classes, te.Y)
	out.addSizes(mr, act, ev)
	out.testY = te.Y
	return nil
}

// partialNote describes the classes whose second stage finished before an
// interruption (class failed is the one that failed or was stopped); prob
// and act hold the finished classes' test probabilities and |A|.
func partialNote(classes []float64, prob *mat.Dense, act []float64, mr *passgp.MultiResult, te *Dataset, failed int, err error) string {
	var m md
	m.p("The second stage stopped at class %v (`%v`); classes finished before that (measured here):", classes[failed], err)
	var t Table
	t.Header = []string{"digit", "error % with invariances", "|A|", "time, both stages (s)"}
	p := make([]float64, te.N())
	for j := 0; j < failed; j++ {
		mat.Col(p, j, prob)
		t.Row(ffmt(classes[j]), f(binaryErr(p, binaryLabels(te.Y, classes[j])), 2),
			fmt.Sprint(int(act[j])), f(mr.PerClass[j].Elapsed.Seconds(), 0))
	}
	m.table(&t)
	return m.String()
}
