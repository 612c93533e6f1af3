package ep

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestLeaveOut compares LeaveOutTo with the posterior rebuilt from the
// same sites minus those of the group (FromSites with the group's sites
// zeroed), for training points inside and outside the group, new points,
// singleton groups (CavityTo) and empty groups (PredictTo). Half of the
// training points are near copies of the other half, as the translated
// images of paper Section 6.3 are.
func TestLeaveOut(t *testing.T) {
	x0, y0 := blobs(20, 11)
	x := mat.NewDense(40, 2, nil)
	y := make([]float64, 40)
	for i := 0; i < 20; i++ {
		x.Set(i, 0, x0.At(i, 0))
		x.Set(i, 1, x0.At(i, 1))
		x.Set(20+i, 0, x0.At(i, 0)+0.05)
		x.Set(20+i, 1, x0.At(i, 1)-0.03)
		y[i], y[20+i] = y0[i], y0[i]
	}
	xs, _ := blobs(3, 12)
	for _, k := range []kernel.Kernel{
		kernel.SE{Var: 2, Len2: 0.8, Jitter: 1e-4},
		kernel.SELin{SE: kernel.SE{Var: 3, Len2: 1.5, Jitter: 1e-2}, Lin: 0.2},
	} {
		p, err := Infer(k, x, y, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		p.Sites.Tau[7], p.Sites.Nu[7] = 0, 0 // a member without information
		if p, err = FromSites(k, x, y, p.Sites); err != nil {
			t.Fatal(err)
		}
		type tc struct {
			name  string
			row   []float64
			self  int
			group []int
		}
		cases := []tc{
			{"own group", x.RawRowView(3), 3, []int{3, 23}},
			{"own site only", x.RawRowView(5), 5, []int{5}},
			{"copies only", x.RawRowView(4), 4, []int{24, 30}},
			{"zero-precision member", x.RawRowView(9), 9, []int{9, 7, 29}},
			{"new point", xs.RawRowView(0), -1, []int{1, 21, 2}},
			{"new point, empty group", xs.RawRowView(1), -1, nil},
			{"training point, empty group", x.RawRowView(6), 6, nil},
			{"large group", xs.RawRowView(2), -1, []int{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20}},
		}
		qs := mat.NewDense(len(cases), 2, nil)
		self := make([]int, len(cases))
		groups := make([][]int, len(cases))
		for i, c := range cases {
			qs.SetRow(i, c.row)
			self[i], groups[i] = c.self, c.group
		}
		mean, vr := make([]float64, len(cases)), make([]float64, len(cases))
		if err := p.LeaveOutTo(mean, vr, qs, self, groups); err != nil {
			t.Fatal(err)
		}
		cm, cv := make([]float64, 40), make([]float64, 40)
		p.CavityTo(cm, cv)
		for i, c := range cases {
			s := p.Sites.Clone()
			for _, j := range c.group {
				s.Tau[j], s.Nu[j] = 0, 0
			}
			q, err := FromSites(k, x, y, s)
			if err != nil {
				t.Fatal(err)
			}
			var wm, wv float64
			if c.self >= 0 {
				wm, wv = q.Mean[c.self], q.Var[c.self]
			} else {
				m1, v1 := make([]float64, 1), make([]float64, 1)
				q.PredictTo(m1, v1, nil, mat.NewDense(1, 2, c.row))
				wm, wv = m1[0], v1[0]
			}
			if math.Abs(mean[i]-wm) > 1e-7*(1+math.Abs(wm)) || math.Abs(vr[i]-wv) > 1e-7*(1+wv) {
				t.Errorf("%s, %s: got (%.10g, %.10g), refit without the sites (%.10g, %.10g)", k.Name(), c.name, mean[i], vr[i], wm, wv)
			}
			if c.name == "own site only" && (math.Abs(mean[i]-cm[5]) > 1e-8*(1+math.Abs(cm[5])) || math.Abs(vr[i]-cv[5]) > 1e-8*cv[5]) {
				t.Errorf("%s: singleton group (%v, %v), CavityTo (%v, %v)", k.Name(), mean[i], vr[i], cm[5], cv[5])
			}
		}
	}
}
