package ep

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// PredictJointCrossTo: its diagonal is PredictCrossTo's variance, its mean
// PredictCrossTo's, and its covariance K** − K*(K + S⁻¹)⁻¹K*ᵀ formed
// densely with gonum; kstar and kss are left as they were.
func TestPredictJointCrossTo(t *testing.T) {
	p, k, x, xs, ks, kss := jointProblem(t)
	ks0, kss0 := mat.DenseCopyOf(ks), mat.DenseCopyOf(kss)
	mean, cov := make([]float64, 9), mat.NewDense(9, 9, nil)
	p.PredictJointCrossTo(mean, cov, ks, kss)
	if !mat.Equal(ks, ks0) || !mat.Equal(kss, kss0) {
		t.Error("PredictJointCrossTo modified its inputs")
	}
	m1, v1 := make([]float64, 9), make([]float64, 9)
	diag := make([]float64, 9)
	k.DiagTo(diag, xs)
	p.PredictCrossTo(m1, v1, nil, ks, diag)
	// Dense reference: (K + S⁻¹)⁻¹ by gonum's solve.
	kt := mat.NewDense(40, 40, nil)
	k.TrainTo(kt, x)
	for i, tau := range p.Sites.Tau {
		kt.Set(i, i, kt.At(i, i)+1/tau)
	}
	var sol, ref mat.Dense
	if err := sol.Solve(kt, ks.T()); err != nil {
		t.Fatal(err)
	}
	ref.Mul(ks, &sol)
	ref.Sub(kss, &ref)
	for i := range 9 {
		if math.Abs(mean[i]-m1[i]) > 1e-12 || math.Abs(cov.At(i, i)-v1[i]) > 1e-10 {
			t.Errorf("point %d: mean %v, variance %v; PredictCrossTo %v, %v", i, mean[i], cov.At(i, i), m1[i], v1[i])
		}
		for j := range 9 {
			if d := math.Abs(cov.At(i, j) - ref.At(i, j)); d > 1e-8 {
				t.Errorf("cov[%d][%d] = %v, dense %v", i, j, cov.At(i, j), ref.At(i, j))
			}
		}
	}
}

// PredictJointBlocksTo: each block's covariance is the matching diagonal
// block of PredictJointCrossTo's, and the means are the same.
func TestPredictJointBlocksTo(t *testing.T) {
	p, _, _, _, ks, kss := jointProblem(t)
	mean, cov := make([]float64, 9), mat.NewDense(9, 9, nil)
	p.PredictJointCrossTo(mean, cov, ks, kss)
	sizes := []int{1, 3, 5}
	var kb, cb []*mat.Dense
	lo := 0
	for _, s := range sizes {
		kb = append(kb, mat.DenseCopyOf(kss.Slice(lo, lo+s, lo, lo+s)))
		cb = append(cb, mat.NewDense(s, s, nil))
		lo += s
	}
	mb := make([]float64, 9)
	p.PredictJointBlocksTo(mb, cb, ks, kb)
	lo = 0
	for b, s := range sizes {
		for i := range s {
			for j := range s {
				if d := math.Abs(cb[b].At(i, j) - cov.At(lo+i, lo+j)); d > 1e-12 {
					t.Errorf("block %d [%d][%d] = %v, joint %v", b, i, j, cb[b].At(i, j), cov.At(lo+i, lo+j))
				}
			}
		}
		lo += s
	}
	for i := range 9 {
		if mb[i] != mean[i] {
			t.Errorf("mean[%d] = %v, joint %v", i, mb[i], mean[i])
		}
	}
}

// jointProblem returns an EP posterior on 40 points (kernel k, inputs x)
// and, for 9 other points xs, their cross-covariance ks with x and their
// prior covariance kss.
func jointProblem(t *testing.T) (p *Posterior, k kernel.Kernel, x, xs, ks, kss *mat.Dense) {
	x, y := blobs(40, 7)
	xs, _ = blobs(9, 8)
	k = kernel.SEBias{SE: kernel.SE{Var: 2, Len2: 0.8, Jitter: 1e-3}, Bias: 0.3}
	p, err := Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ks = mat.NewDense(9, 40, nil)
	k.CrossTo(ks, xs, x)
	kss = mat.NewDense(9, 9, nil)
	k.CrossTo(kss, xs, xs)
	return p, k, x, xs, ks, kss
}
