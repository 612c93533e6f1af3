package main

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/passgp"
)

func init() { gpMNIST = mnistGP }

// mnistScale is the input scale of the MNIST polynomial kernel in units of
// 1/784: k(x,x') = t1 (mnistScale x.x'/784 + 1)^9 on pixels/255. With the
// scale 1 (LIBSVM's default gamma = 1/d) the Gram entries range over about
// 1-3 and the kernel behaves like a smooth low-order one (its Taylor terms
// of order > 2 are small). The scale was chosen on a validation split of
// the training set, never the test set (mnistScaleNote): first 3 on the
// first stage alone, then 6 once the invariance stage was validated too.
const mnistScale = 6.0

const mnistScaleNote = "the scale was chosen on a validation split of the training set (PASS-GP trained on the first 50000 " +
	"training images, validated on the last 10000; `go run ./bench/mnistscale`): for digit 9 against the rest, validation error " +
	"0.79 / 0.66 / 0.65 / 0.61% and Brier score 0.0126 / 0.0161 / 0.0209 / 0.0299 for scales 1 / 3 / 6 / 12 after the first stage, " +
	"and with the 8-shift invariance stage (`--shifts`) 0.57% at scale 3 against 0.47% at scale 6 (digit 0: 0.21% at both); " +
	"scale 6 is the more flexible kernel that the larger invariance training sets can use"

var paperInvMNIST = struct{ err, act []float64 }{
	[]float64{0.14, 0.14, 0.24, 0.24, 0.29, 0.22, 0.17, 0.35, 0.29, 0.35},
	[]float64{6505, 4372, 11401, 12988, 9776, 11960, 7360, 9872, 15194, 14790},
}

// mnistGP runs paper Sections 6.2-6.3 on MNIST: PASS-GP, then the
// invariance stage from its classifiers, then fPASS-GP with M = 2000.
func mnistGP(ctx context.Context, b *builder, tr, te *Dataset) error {
	env := b.env
	cfg := env.Cfg
	b.declare("gp-main", "gp-digits", "gp-inv", "gp-inv-partial", "svm", "gp-fpass", "mem")
	d := tr.D()
	// Polynomial covariance of degree 9 on pixels/255 with the input scale
	// g = gScale/d (default mnistScale). The paper does not state its
	// input scaling; the scale was chosen on a validation split of the
	// training set (see mnistScaleNote; bench/mnistscale measures it).
	gScale, scaleNote := mnistScale, mnistScaleNote
	if cfg.MNISTScale > 0 && cfg.MNISTScale != mnistScale {
		gScale = cfg.MNISTScale
		scaleNote = fmt.Sprintf("scale %g/784 set by --mnist-scale; for the default %g/784, %s", gScale, mnistScale, mnistScaleNote)
	}
	poly := kernel.Poly{Var: 1, Jitter: 1e-2, Degree: 9, Gamma: gScale / float64(d)}
	// The invariance stage makes one pass in 5 batches over the augmented
	// set: every batch runs EP on the whole growing active set (up to about
	// 15000 points, the paper's sizes), so its cost is about the sum of
	// |A|^3 over the batches; on 2 cores one pass in 10 batches took about
	// 15 minutes for digit 9 alone.
	sub, hypEvery, sub2, mFix := 100, 10, 5, 2000
	passes2 := 1
	if cfg.Quick {
		sub, hypEvery, sub2, mFix = 10, 2, 10, 500
	}
	settings := fmt.Sprintf("Covariance k(x,x') = t1 (%g x.x'/784 + 1)^9 + t3 delta(x,x') on pixels/255 (the paper writes t1 (x.x' + 1)^9 without "+
		"stating its input scaling; %s), t1 and t3 optimised from t1 = 1, t3 = 0.01. "+
		"PASS-GP: N_init = 300, N_sub = %d, N_pass = 2, p_inc = 0.6, p_del = 0.99, theta optimised on every %d-th batch (counting from the first); "+
		"fPASS-GP: M = N_init = %d, N_sub = %d, N_pass = 4, p_exc = 0.02, theta on every %d-th batch. Ten one-vs-rest classifiers, "+
		"two trained at a time on the two cores. %d repetition(s) (the paper used 10).", gScale, scaleNote, sub, hypEvery, mFix, sub, hypEvery, cfg.Reps)
	if cfg.Quick {
		settings += " Quick mode: N_sub = 10, theta every 2nd batch, fPASS-GP M = 500."
	}
	runs := []*multiRuns{{Name: "PASS-GP"}, {Name: "fPASS-GP"}}
	inv := &multiRuns{Name: "PASS-GP + 8 shifts"}
	render := func() {
		var m md
		m.h(3, "Multi-class results (paper Section 6.2, Figure 8)")
		m.p("%s", settings)
		var t Table
		t.Header = []string{"method", "multi-class error % (measured here)", "paper", "Brier, normalised multi-class", "NLP", "ECE %",
			"calibrated: error %", "calibrated: Brier", "calibrated: NLP", "calibrated: ECE %",
			"mean |A|", "training wall time, 10 digits (min)", "prediction (s)"}
		paper := map[string]string{"PASS-GP": "Figure 8c only (text: comparable to SVM)", "fPASS-GP": "Figure 8c only", "PASS-GP + 8 shifts": "0.86 ± 0.02"}
		for _, r := range append(runs, inv) {
			if len(r.Multi) == 0 {
				continue
			}
			name := r.Name
			if r.Partial {
				name += " (partial: stopped early)"
			}
			t.Row(name, pm(r.Multi, 2), paper[r.Name], pm(r.BrierM, 4), pm(r.NLP, 3), pm(scale(r.ECE, 100), 2),
				pm(r.CalErr, 2), pm(r.CalBrier, 4), pm(r.CalNLP, 3), pm(scale(r.CalECE, 100), 2), f(meanOf(flatten(r.Act)), 0),
				pm(scale(r.Total, 1.0/60), 1), pm(r.Pred, 1))
		}
		m.table(&t)
		m.p("Raw columns: the normalised one-vs-rest probabilities q(+1|x) of paper eq. 4; calibrated columns: calib.Calibration's " +
			"multinomial logistic map of the latents, fitted on the training points' held-out latents only (what `passgp-fast predict` " +
			"gives; n/a where the stage fits none). SVM references quoted by the paper (not measured here): RBF 1.4%%, polynomial degree 9 1.22%%; with invariances 0.68%%. " +
			"For PASS-GP + 8 shifts the training time is the second stage only (classes one after the other); see the table below for per-digit times of both stages. " +
			"Its calibration is fitted on the second-stage classifiers' held-out latents of all 60000 training images, where the latent of a first-stage " +
			"active image leaves out the sites of its eight translations too (`ep.Posterior.LeaveOutTo`): they are near copies with the same label.")
		b.set("gp-main", m.String())

		var dt Table
		dt.Header = []string{"digit", "PASS-GP error %", "PASS-GP |A|", "PASS-GP time (s)", "fPASS-GP error %", "fPASS-GP time (s)",
			"+8 shifts error %", "+8 shifts |A|", "paper +shifts error %", "paper +shifts |A|"}
		cls := runs[0].Classes
		if cls == nil {
			return
		}
		for j, c := range cls {
			row := []string{fmt.Sprint(c), pm(transpose(runs[0].Errs)[j], 2), pm(transpose(runs[0].Act)[j], 0), pm(transpose(runs[0].Times)[j], 0)}
			if len(runs[1].Errs) > 0 {
				row = append(row, pm(transpose(runs[1].Errs)[j], 2), pm(transpose(runs[1].Times)[j], 0))
			} else {
				row = append(row, "", "")
			}
			if len(inv.Errs) > 0 {
				row = append(row, pm(transpose(inv.Errs)[j], 2), pm(transpose(inv.Act)[j], 0))
			} else {
				row = append(row, "", "")
			}
			row = append(row, f(paperInvMNIST.err[j], 2), f(paperInvMNIST.act[j], 0))
			dt.Row(row...)
		}
		var dm md
		dm.h(3, "Per digit (paper Figure 8a-b and Table 1)")
		dm.table(&dt)
		dm.p("The paper reports MNIST per-digit errors without invariances only as a figure (about 0.2-0.5%%) with PASS-GP active sets " +
			"below 4%% of the training set (2400 points). Per-digit time: wall time of that binary classifier trained on one core while " +
			"another digit trained on the other; for +8 shifts, first stage plus second stage.")
		names, vals := perDigitMeans(append(runs, inv))
		file, rel := env.figPath("mnist-fig8a-error-per-digit.png")
		if err := barFig(file, "MNIST: test error per digit (one vs rest)", "error (%)", digitNames(cls), names, vals); err == nil {
			dm.img("MNIST error per digit", rel)
		}
		b.set("gp-digits", dm.String())
	}

	// 1. PASS-GP.
	o := passgp.Options{Method: passgp.PASSGP, Kernel: poly, Sub: sub, HypEvery: hypEvery}
	err := trainMulti(ctx, env, tr, te, runs[0], o)
	if len(runs[0].Multi) > 0 {
		render()
		partial := ""
		if runs[0].Partial {
			partial = "classifiers stopped unfinished: error of the partial models"
		}
		b.target(Target{Name: "MNIST PASS-GP multi-class error", Goal: "<= 1.5 %", Limit: 1.5, Measured: meanOf(runs[0].Multi), Unit: "%", Note: partial})
		tt := Target{Name: "MNIST ten-digit PASS-GP training time", Goal: "< 30 min", Limit: 30, Measured: meanOf(runs[0].Total) / 60, Unit: "min"}
		if runs[0].Partial {
			tt.Note = fmt.Sprintf("training was stopped unfinished after %.1f min", tt.Measured)
			tt.Measured = math.NaN()
		}
		b.target(tt)
	}
	if err != nil {
		return err
	}
	// 2. LIBSVM (before the invariance stage, whose full-scale cost can
	// take the rest of a --deadline run).
	b.svm()
	// 3. Invariances from the PASS-GP classifiers.
	for rep, m1 := range runs[0].Models {
		if skip, note := env.skipIfLate(ctx, "MNIST with invariances", 5*time.Minute); skip {
			b.set("gp-inv", note)
			break
		}
		err := augmentMulti(ctx, env, m1, runs[0].Times[rep], tr, te, inv, 28, 28, 8, 0.9, sub2, passes2, env.seeds()[rep])
		if len(inv.Multi) > 0 {
			render()
			b.target(Target{Name: "MNIST multi-class error with invariances", Goal: "<= 1.0 %", Limit: 1.0, Measured: meanOf(inv.Multi), Unit: "%"})
		}
		if inv.PartialNote != "" {
			b.set("gp-inv-partial", inv.PartialNote)
		}
		if err != nil {
			return err
		}
	}
	if len(inv.Multi) > 0 || inv.PartialNote != "" {
		b.set("gp-inv", fmt.Sprintf("Invariances (Section 6.3): every PASS-GP active image plus its eight one-pixel translations "+
			"(including diagonals) form a training set of 9|A| points; PASS-GP continues on it from the first stage's active set and sites "+
			"with theta fixed and p_inc = 0.9, N_sub = %d (the paper keeps MNIST's N_sub = 100; fewer, larger batches bound the number of "+
			"EP runs on the large augmented active sets), N_pass = %d (the paper: as in the first stage, 2; one pass already reaches the paper's active set sizes "+
			"and halves the cost, which on 2 cores is dominated by EP on active sets of up to about 15000 points). Results are in the tables above.", sub2, passes2))
	}
	if inv.PartialNote != "" {
		b.set("gp-inv-partial", inv.PartialNote)
	}
	// 4. fPASS-GP with M = 2000.
	if cfg.NoMNISTFPass {
		note := "fPASS-GP was not run in this run (`--no-mnist-fpass`)."
		if row := b.oldRow("gp-main", "fPASS-GP"); row != "" {
			note = fmt.Sprintf("fPASS-GP was not rerun (`--no-mnist-fpass`); its row from the earlier run written %s UTC (`%s`):\n\n%s",
				b.old.Updated.Format("2006-01-02 15:04"), b.old.Command, row)
		}
		b.set("gp-fpass", note)
		return nil
	}
	if skip, note := env.skipIfLate(ctx, "MNIST fPASS-GP", 10*time.Minute); skip {
		b.set("gp-fpass", note)
		return nil
	}
	o = passgp.Options{Method: passgp.FPASSGP, Kernel: poly, Sub: sub, HypEvery: hypEvery, Init: mFix, M: mFix}
	err = trainMulti(ctx, env, tr, te, runs[1], o)
	if len(runs[1].Multi) > 0 {
		render()
	}
	return err
}
