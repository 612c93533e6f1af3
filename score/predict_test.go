package score

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/internal/testenv"
)

// The chunked, multi-threaded scorer equals a one-point-at-a-time
// reference computed directly from the definitions (paper eq. 4).
func TestScorerMatchesReference(t *testing.T) {
	x, y := testenv.Toy(40, 10)
	k := toyKernel()
	post, err := ep.Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	xs, _ := testenv.Toy(700, 11)
	rows := make([]int, 0, 600)
	for i := 0; i < 700; i += 7 {
		rows = append(rows, i, i+3, i+5)
	}
	mean, vr := make([]float64, len(rows)), make([]float64, len(rows))
	r := Runner{Threads: 2}
	r.Predict(post, k, x, denseRows{xs}, rows, mean, vr, nil)

	// Reference: L = chol(I + S½KS½), m = k*ᵀα, v = k** − |L⁻¹S½k*|².
	n := 40
	K := mat.NewDense(n, n, nil)
	k.TrainTo(K, x)
	sq := make([]float64, n)
	for i, tau := range post.Sites.Tau {
		sq[i] = math.Sqrt(tau)
	}
	B := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			v := sq[i] * sq[j] * K.At(i, j)
			if i == j {
				v++
			}
			B.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(B) {
		t.Fatal("B not PD")
	}
	var L mat.TriDense
	ch.LTo(&L)
	ks := mat.NewDense(1, n, nil)
	for c, i := range rows {
		xi := mat.NewDense(1, 2, []float64{xs.At(i, 0), xs.At(i, 1)})
		k.CrossTo(ks, xi, x)
		m := 0.0
		w := mat.NewVecDense(n, nil)
		for j := 0; j < n; j++ {
			m += ks.At(0, j) * post.Alpha[j]
			w.SetVec(j, sq[j]*ks.At(0, j))
		}
		var v mat.VecDense
		if err := v.SolveVec(&L, w); err != nil {
			t.Fatal(err)
		}
		kss := []float64{0}
		k.DiagTo(kss, xi)
		vv := kss[0] - mat.Dot(&v, &v)
		if math.Abs(m-mean[c]) > 1e-10 || math.Abs(vv-vr[c]) > 1e-10 {
			t.Fatalf("row %d: (%v, %v), reference (%v, %v)", i, mean[c], vr[c], m, vv)
		}
	}
}
