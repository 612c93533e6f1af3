package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/passgp-fast/passgp-fast/bench/internal/mldata"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/synth"
)

// Set is one data set of the development suite: the training part of a
// benchmark (or a generated task, all of which is training data), of
// which Sub points are drawn at random (0: all) before the folds are cut.
type Set struct {
	Name     string
	About    string // what the set exercises
	Source   string // where its points come from
	Sub      int    // points of the default suite (0: all)
	QuickSub int    // points of the --quick suite (0: not in it)
	OptIn    bool   // only by its flag (--mnist) or by --sets
	load     func(ctx context.Context, e *env) (*data.Dataset, error)
}

// env says where the data that are not generated live.
type env struct {
	dataDir    string // USPS, IJCNN1, MNIST training files (../shared/data)
	mlbenchDir string // NAME.csv files as R's write.csv writes them ("" : none)
	work       string // scratch directory (Rscript exports go here)
}

// Generated tasks use data seed genSeed, whatever --seed is, so that the
// suite's data stay the same when the folds are reshuffled.
const genSeed = 1

// suite returns every set the command knows, in report order.
func suite() []Set {
	s := []Set{
		genTask("gen-noise", "binary, 5 of 10 features relevant, 15% label flips", synth.Task{D: 10, Relevant: 5, Sep: 3, Flip: 0.15}, 2000, 600),
		genTask("gen-imbalance", "binary, 8% positives, 2% flips", synth.Task{D: 10, Relevant: 5, Sep: 3, Flip: 0.02, Priors: []float64{0.92, 0.08}}, 3000, 800),
		genTask("gen-irrelevant", "binary, 4 of 40 features relevant, 5% flips", synth.Task{D: 40, Relevant: 4, Sep: 3, Flip: 0.05}, 2000, 600),
		genTask("gen-multiclass", "5 classes, 10 of 15 features relevant, 10% flips", synth.Task{Classes: 5, D: 15, Relevant: 10, Sep: 2.5, Flip: 0.1}, 1500, 800),
		genShape("gen-xor", synth.Shape{Kind: "xor", D: 8, Flip: 0.05}, 2000, 600),
		genShape("gen-circle", synth.Shape{Kind: "circle", D: 8, Flip: 0.05}, 2000, 0),
		genShape("gen-parabola", synth.Shape{Kind: "parabola", D: 8, Flip: 0.05}, 2000, 0),
	}
	quick := map[string]int{"Sonar": -1, "Glass": -1, "PimaIndiansDiabetes": -1}
	subs := map[string]int{"Satellite": 2000, "Shuttle": 5000, "LetterRecognition": 5000}
	for _, n := range mldata.Sets {
		st := mlbenchSet(n, subs[n], max(quick[n], 0))
		if quick[n] < 0 {
			st.QuickSub = -1 // all of it
		}
		st.OptIn = n == "LetterRecognition"
		s = append(s, st)
	}
	// All of Shuttle's training part, where its classes of a few dozen
	// points among 40,600 are as rare as a user's would be: opt-in.
	full := mlbenchSet("Shuttle", 0, 0)
	full.Name, full.OptIn = "Shuttle-full", true
	s = append(s, full)
	return append(s,
		sharedSet("usps", "USPS digits, 10 classes, 256 features", "usps.train.bz2", 0, 1500, false),
		sharedSet("ijcnn", "IJCNN1, binary, 22 features, 10% positives", "ijcnn1.train.bz2", 10000, 2000, false),
		sharedSet("mnist", "MNIST digits, 10 classes, 784 features", "train-images-idx3-ubyte.gz", 10000, 0, true),
	)
}

// selectSets returns the sets to run: those named by names (a comma
// list, any set, opt-in or not), else the --quick suite, else the default
// suite plus MNIST where mnist is set. With quick, a set runs on its
// QuickSub points.
func selectSets(all []Set, names string, quick, mnist bool) ([]Set, error) {
	var out []Set
	if names != "" {
		for _, n := range strings.Split(names, ",") {
			i := slices.IndexFunc(all, func(s Set) bool { return strings.EqualFold(s.Name, strings.TrimSpace(n)) })
			if i < 0 {
				return nil, fmt.Errorf("--sets: no set %q (go run ./bench/devsuite --list)", strings.TrimSpace(n))
			}
			out = append(out, all[i])
		}
	} else {
		for _, s := range all {
			if (quick && s.QuickSub != 0) || (!quick && (!s.OptIn || (mnist && s.Name == "mnist"))) {
				out = append(out, s)
			}
		}
	}
	if quick {
		for i, s := range out {
			switch {
			case s.QuickSub > 0:
				out[i].Sub = s.QuickSub
			case s.QuickSub < 0:
				out[i].Sub = 0
			}
		}
	}
	return out, nil
}
