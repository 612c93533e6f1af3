package calib

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/la"
)

// CrossFitFolds is the number of folds of CrossFit.
const CrossFitFolds = 5

// CrossFit returns, for each of CrossFitFolds folds of the held-out points
// (rows of z and rho, with classes truth), the rows in the fold and the
// calibration (Fit) fitted on the other folds. Scoring each
// fold with its own calibration gives an estimate of test performance in
// which no point scores a map that was fitted on it: fitting the
// calibration and scoring it on the same latents, as the held-out
// estimate otherwise would, is optimistic by the map's fit to those
// points. The folds are a seeded
// random partition (seed), stratified by class so that every fit sees
// every class.
func CrossFit(z, rho *mat.Dense, truth []int, seed uint64) (folds [][]int, cals []*Calibration, err error) {
	n, _ := z.Dims()
	folds = stratifiedFolds(truth, CrossFitFolds, seed)
	in := make([]int, n)
	for f, rows := range folds {
		for _, i := range rows {
			in[i] = f
		}
	}
	// The folds' fits are independent: side by side within the thread
	// budget, each into its own slot, so the result does not depend on it.
	cals = make([]*Calibration, len(folds))
	errs := make([]error, len(folds))
	la.ForEach(la.Workers(len(folds)), len(folds), func(_, f int) {
		var rest []int
		for i := range n {
			if in[i] != f {
				rest = append(rest, i)
			}
		}
		zr, rr := gatherMatRows(z, rest), gatherMatRows(rho, rest)
		cals[f], errs[f] = Fit(zr, rr, gather(truth, rest))
	})
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return folds, cals, nil
}

// CrossFitNLL returns the mean negative log likelihood of the classes
// truth of the held-out points (rows of z and rho) with each fold of
// CrossFit scored through the calibration fitted on the others: a
// cross-validated likelihood of the latents, which compares two
// posteriors on the training data as cross-validation compares models.
func CrossFitNLL(z, rho *mat.Dense, truth []int, seed uint64) (float64, error) {
	folds, cals, err := CrossFit(z, rho, truth, seed)
	if err != nil {
		return 0, err
	}
	var sum float64
	for f, rows := range folds {
		if len(rows) == 0 {
			continue
		}
		each := make([]float64, len(rows))
		cals[f].NLLTo(each, gatherMatRows(z, rows), gatherMatRows(rho, rows), gather(truth, rows))
		for _, v := range each {
			sum += v
		}
	}
	return sum / float64(len(truth)), nil
}

// stratifiedFolds deals the points of each class, in a seeded random
// order, to k folds in turn, and returns each fold's points in ascending
// order.
func stratifiedFolds(truth []int, k int, seed uint64) [][]int {
	rng := rand.New(rand.NewPCG(seed, seed^0x9b05688c2b3e6c1f))
	byClass := map[int][]int{}
	maxClass := 0
	for i, t := range truth {
		byClass[t] = append(byClass[t], i)
		maxClass = max(maxClass, t)
	}
	in := make([]int, len(truth))
	next := 0
	for c := 0; c <= maxClass; c++ {
		rows := byClass[c]
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		for _, i := range rows {
			in[i] = next % k
			next++
		}
	}
	folds := make([][]int, k)
	for i, f := range in {
		folds[f] = append(folds[f], i)
	}
	return folds
}

// gatherMatRows returns the rows idx of m as a new matrix (nil m or no
// idx: nil).
func gatherMatRows(m *mat.Dense, idx []int) *mat.Dense {
	if m == nil || len(idx) == 0 {
		return nil
	}
	_, d := m.Dims()
	raw := m.RawMatrix()
	out := make([]float64, len(idx)*d)
	for k, i := range idx {
		copy(out[k*d:(k+1)*d], raw.Data[i*raw.Stride:i*raw.Stride+d])
	}
	return mat.NewDense(len(idx), d, out)
}

// gather returns the elements idx of v.
func gather[T any](v []T, idx []int) []T {
	out := make([]T, len(idx))
	for k, i := range idx {
		out[k] = v[i]
	}
	return out
}
