// Command calbound asks, for a trained model and a labelled test set,
// how much of the model's test Brier score and NLP a better calibration
// could remove: it scores the test points with the model's own
// calibration (fitted on held-out latents of the training points when the
// model was trained) and with calibrations of the same form fitted on
// the test set itself, which a model must never use and which therefore
// bound what any calibration of those latents could reach:
//
//   - cross-fitted: calib.Fit on all but one of -folds
//     interleaved folds of the test points, applied to the fold left out;
//   - temperature: the model's calibration with its slope A scaled by the
//     factor in -scales that gives the lowest test NLP (in-sample, the most
//     flattering figure).
//
// Where these are no better than the model's own figures, the gap to
// another classifier lies in the latents, not in their calibration
// (docs/method.md). It is a diagnostic only: nothing it
// fits is written anywhere.
//
//	go run ./bench/calbound --model usps.model --data ../shared/data/usps.test.bz2
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
)

func main() {
	log.SetFlags(0)
	modelPath := flag.String("model", "", "model file written by train (required)")
	dataPath := flag.String("data", "", "labelled test data file (required)")
	folds := flag.Int("folds", 2, "interleaved folds of the test set for the cross-fitted calibration")
	scales := flag.String("scales", "0.6,0.7,0.8,0.85,0.9,0.95,1,1.05,1.1,1.2,1.4", "factors of the calibration's slope A to try")
	flag.Parse()
	if *modelPath == "" || *dataPath == "" {
		log.Fatal("calbound: --model and --data are required")
	}
	var sc []float64
	for _, f := range strings.Split(*scales, ",") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || !(v > 0) {
			log.Fatalf("calbound: --scales: bad factor %q", f)
		}
		sc = append(sc, v)
	}
	m, err := model.Load(*modelPath)
	if err != nil {
		log.Fatal(err)
	}
	ds, err := data.Load(*dataPath, data.Options{MinDim: m.D()})
	if err != nil {
		log.Fatal(err)
	}
	rows, err := bounds(m, ds, *folds, sc)
	if err != nil {
		log.Fatalf("calbound: %v", err)
	}
	fmt.Printf("%s on %s (%d points)\n", *modelPath, *dataPath, ds.N)
	fmt.Printf("%-44s %8s %8s %8s\n", "calibration", "error", "Brier", "NLP")
	for _, r := range rows {
		fmt.Printf("%-44s %7.2f%% %8.4f %8.4f\n", r.name, 100*r.err, r.brier, r.nlp)
	}
}

// row is one calibration's test figures: the error of its most probable
// class, the Brier score Σ_c (p_c − [y = c])² and the mean negative log
// probability of the true class, all averaged over the test points.
type row struct {
	name            string
	err, brier, nlp float64
}

// bounds scores ds with m's calibration, with calibrations cross-fitted
// on folds interleaved folds of ds, and with m's calibration at the
// factor of scales (times its slope) that gives the lowest NLP.
func bounds(m *model.Model, ds *data.Dataset, folds int, scales []float64) ([]row, error) {
	if m.Calibration == nil {
		return nil, errors.New("the model has no calibration (format version 1)")
	}
	if m.Mode == model.PositiveVsRest {
		return nil, errors.New("positive-vs-rest models are not supported")
	}
	if folds < 2 || folds > ds.N {
		return nil, fmt.Errorf("--folds %d: need 2 to %d", folds, ds.N)
	}
	if ds.D != m.D() {
		return nil, fmt.Errorf("%d features, the model has %d", ds.D, m.D())
	}
	truth := make([]int, ds.N)
	for i, y := range ds.Y {
		truth[i] = -1
		for c, v := range m.Classes {
			if v == y {
				truth[i] = c
			}
		}
		if truth[i] < 0 {
			return nil, fmt.Errorf("test point %d has class %v, which the model does not know", i, y)
		}
	}
	nb := len(m.Binaries)
	z, rho, near := mat.NewDense(ds.N, nb, nil), mat.NewDense(ds.N, nb, nil), mat.NewDense(ds.N, nb, nil)
	m.LatentShareNearTo(z, rho, near, ds.Dense())
	z, rho = m.Calibration.Gate(z, rho, near)

	own := score("the model's (training held-out latents)", m.Calibration, z, rho, truth)
	cross, err := crossFit(z, rho, truth, folds)
	if err != nil {
		return nil, err
	}
	best := row{nlp: math.Inf(1)}
	for _, s := range scales {
		c := *m.Calibration
		c.A *= s
		c.Slopes = nil
		if m.Calibration.Slopes != nil {
			c.Slopes = make([]float64, len(m.Calibration.Slopes))
			for k, a := range m.Calibration.Slopes {
				c.Slopes[k] = a * s
			}
		}
		if r := score(fmt.Sprintf("best temperature on the test set (A × %g)", s), &c, z, rho, truth); r.nlp < best.nlp {
			best = r
		}
	}
	return []row{own, cross, best}, nil
}

// crossFit returns the test figures of calibrations fitted by
// calib.Fit on all folds of (z, rho, truth) but one and
// applied to that one; point i is in fold i mod folds.
func crossFit(z, rho *mat.Dense, truth []int, folds int) (row, error) {
	n, k := z.Dims()
	nc := max(k, 2)
	prob := mat.NewDense(n, nc, nil)
	var nll float64
	for f := range folds {
		var fit, out []int
		for i := range n {
			if i%folds == f {
				out = append(out, i)
			} else {
				fit = append(fit, i)
			}
		}
		c, err := calib.Fit(rowsOf(z, fit), rowsOf(rho, fit), pick(truth, fit))
		if err != nil {
			return row{}, err
		}
		zo, ro := rowsOf(z, out), rowsOf(rho, out)
		p := mat.NewDense(len(out), nc, nil)
		c.ProbTo(p, zo, ro)
		for j, i := range out {
			prob.SetRow(i, p.RawRowView(j))
		}
		nll += c.MeanNLL(zo, ro, pick(truth, out)) * float64(len(out))
	}
	r := figures(prob, truth)
	r.name = fmt.Sprintf("cross-fitted on the test set (%d folds)", folds)
	r.nlp = nll / float64(n)
	return r, nil
}

// score returns c's test figures on (z, rho, truth).
func score(name string, c *calib.Calibration, z, rho *mat.Dense, truth []int) row {
	n, k := z.Dims()
	prob := mat.NewDense(n, max(k, 2), nil)
	c.ProbTo(prob, z, rho)
	r := figures(prob, truth)
	r.name, r.nlp = name, c.MeanNLL(z, rho, truth)
	return r
}

// figures returns the error and Brier score of the class probabilities
// prob (one row per point, one column per class) for the classes truth.
func figures(prob *mat.Dense, truth []int) row {
	n, nc := prob.Dims()
	var r row
	for i := range n {
		p := prob.RawRowView(i)
		best := 0
		for c := range nc {
			if p[c] > p[best] {
				best = c
			}
			d := p[c]
			if c == truth[i] {
				d--
			}
			r.brier += d * d
		}
		if best != truth[i] {
			r.err++
		}
	}
	r.err /= float64(n)
	r.brier /= float64(n)
	return r
}

// rowsOf returns the rows idx of a.
func rowsOf(a *mat.Dense, idx []int) *mat.Dense {
	_, c := a.Dims()
	out := mat.NewDense(len(idx), c, nil)
	for j, i := range idx {
		out.SetRow(j, a.RawRowView(i))
	}
	return out
}

// pick returns the elements idx of v.
func pick(v []int, idx []int) []int {
	out := make([]int, len(idx))
	for j, i := range idx {
		out[j] = v[i]
	}
	return out
}
