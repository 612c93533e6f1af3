package bench

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/internal/testenv"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/passgp"
)

var (
	uspsOnce       sync.Once
	uspsTr, uspsTe *data.Dataset
	uspsErr        error
)

// loadUSPS loads ../shared/data's USPS split once; the benchmark is
// skipped when the data are absent.
func loadUSPS(b *testing.B) (*data.Dataset, *data.Dataset) {
	dir := filepath.Join("..", "..", "shared", "data")
	if _, err := os.Stat(filepath.Join(dir, "usps.train.bz2")); err != nil {
		testenv.MissingShared(b, "USPS not found in ../shared/data")
	}
	uspsOnce.Do(func() {
		uspsTr, uspsErr = data.Load(filepath.Join(dir, "usps.train.bz2"), data.Options{Dim: 256})
		if uspsErr == nil {
			uspsTe, uspsErr = data.Load(filepath.Join(dir, "usps.test.bz2"), data.Options{Dim: 256})
		}
	})
	if uspsErr != nil {
		b.Fatal(uspsErr)
	}
	return uspsTr, uspsTe
}

// BenchmarkPASSGPScore is the inclusion pass: scoring a batch of 729 points
// (USPS's N/N_sub) of dimension 256 against an active set of M points, one
// Gram block and one triangular solve per chunk. FLOPs: 3·b·M·d for the SE
// Gram block (distances by GEMM) plus b·M² for the solve.
func BenchmarkPASSGPScore(b *testing.B) {
	const nb, d = 729, 256
	for _, m := range []int{300, 1000} {
		b.Run("m="+itoa(m)+"/batch="+itoa(nb), func(b *testing.B) {
			xa := mat.NewDense(m, d, RandGeneral(m, d, 1).Data)
			ya := make([]float64, m)
			for i := range ya {
				ya[i] = 1
				if xa.At(i, 0)+xa.At(i, 1) < 0 {
					ya[i] = -1
				}
			}
			res, err := passgp.Train(context.Background(), xa, ya, &passgp.Options{Method: passgp.Full, FixedTheta: true,
				Kernel: kernel.SE{Var: 4, Len2: 64, Jitter: 1e-2}})
			if err != nil {
				b.Fatal(err)
			}
			xs := mat.NewDense(nb, d, RandGeneral(nb, d, 2).Data)
			prob := make([]float64, nb)
			b.ResetTimer()
			for b.Loop() {
				res.Model.PredictTo(prob, xs)
			}
			ReportFLOPs(b, 3*float64(nb*m*d)+float64(nb)*float64(m*m))
		})
	}
}

// BenchmarkPASSGP trains on USPS with the paper's settings (Section 6.1):
// one digit against the rest, and the whole 10-class problem.
func BenchmarkPASSGP(b *testing.B) {
	for _, digit := range []float64{0, 3} {
		b.Run("usps/digit="+itoa(int(digit)), func(b *testing.B) {
			tr, _ := loadUSPS(b)
			y, err := tr.BinaryLabels(&digit)
			if err != nil {
				b.Fatal(err)
			}
			x := tr.Dense()
			var active int
			for b.Loop() {
				res, err := passgp.Train(context.Background(), x, y, nil)
				if err != nil {
					b.Fatal(err)
				}
				active = len(res.Model.Active)
			}
			b.ReportMetric(float64(active), "active")
		})
	}
	for _, m := range []passgp.Method{passgp.PASSGP, passgp.FPASSGP} {
		b.Run("usps/multiclass/"+m.String(), func(b *testing.B) { benchUSPSMulti(b, m) })
	}
}

// benchUSPSMulti trains method m on the 10-class USPS problem with its
// default options (training and prediction timed) and reports the test
// error.
func benchUSPSMulti(b *testing.B, m passgp.Method) {
	tr, te := loadUSPS(b)
	x, xt := tr.Dense(), te.Dense()
	var errRate float64
	for b.Loop() {
		res, err := passgp.TrainMulti(context.Background(), x, tr.Y, &passgp.Options{Method: m})
		if err != nil {
			b.Fatal(err)
		}
		pred := make([]float64, te.N)
		res.Model.PredictTo(pred, xt)
		errRate = calib.ErrorRate(pred, te.Y)
	}
	b.ReportMetric(100*errRate, "test_err_%")
}

// BenchmarkIVM times IVM on USPS: one greedy selection of M = 300 of 7291
// points at fixed θ (the sequential hot path, O(N·M·(M+d))), and the
// paper's 10-class setting (8 alternations of selection and θ optimisation,
// SE+lin).
func BenchmarkIVM(b *testing.B) {
	b.Run("usps/select/m=300", func(b *testing.B) {
		tr, _ := loadUSPS(b)
		zero := 0.0
		y, err := tr.BinaryLabels(&zero)
		if err != nil {
			b.Fatal(err)
		}
		x := tr.Dense()
		for b.Loop() {
			if _, err := passgp.Train(context.Background(), x, y, &passgp.Options{Method: passgp.IVM, M: 300, FixedTheta: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("usps/multiclass/ivm", func(b *testing.B) { benchUSPSMulti(b, passgp.IVM) })
}
