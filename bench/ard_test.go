package bench

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// BenchmarkARD times the ARD kernel's training Gram (TrainTo: scale the
// inputs, then la.GramSETo) and its evidence-gradient contraction
// (GradTraceTo: all d+2 components in one O(M²d) pass with one M×M
// temporary and one M×M by M×d DGEMM), beside SE's, at M = 1000 and
// d = 20, 200. go test -bench ARD ./bench/
func BenchmarkARD(b *testing.B) {
	const m = 1000
	for _, d := range []int{20, 200} {
		x := mat.NewDense(m, d, RandGeneral(m, d, 21).Data)
		w := mat.NewDense(m, m, nil)
		wr := RandGeneral(m, m, 22)
		for i := 0; i < m; i++ {
			for j := 0; j <= i; j++ {
				v := wr.Data[i*m+j]
				w.Set(i, j, v)
				w.Set(j, i, v)
			}
		}
		len2 := make([]float64, d)
		for k := range len2 {
			len2[k] = float64(d) / 4 * math.Exp(0.5*math.Sin(float64(k)))
		}
		ard := kernel.SEARD{Var: 1, Len2: len2, Jitter: 1e-2}
		se := kernel.SE{Var: 1, Len2: float64(d) / 4, Jitter: 1e-2}
		for _, k := range []kernel.Kernel{se, ard} {
			dst := mat.NewDense(m, m, nil)
			b.Run(fmt.Sprintf("gram/%s/M=%d/d=%d", k.Name(), m, d), func(b *testing.B) {
				for b.Loop() {
					k.TrainTo(dst, x)
				}
			})
			g := make([]float64, len(k.Params()))
			b.Run(fmt.Sprintf("gradtrace/%s/M=%d/d=%d", k.Name(), m, d), func(b *testing.B) {
				for b.Loop() {
					k.GradTraceTo(g, w, x)
				}
			})
		}
	}
}
