package passgpfast

import (
	"context"
	"math"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/internal/testenv"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// rowsOf returns the rows idx of x.
func rowsOf(x *mat.Dense, idx []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for r, i := range idx {
		out.SetRow(r, x.RawRowView(i))
	}
	return out
}

// valuesOf returns v[idx].
func valuesOf(v []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for r, i := range idx {
		out[r] = v[i]
	}
	return out
}

// The estimate's latent of each active point equals a brute-force
// computation: EP's posterior rebuilt from the sites without the point,
// its nearest inactive points' ADF sites added one by one, and the point
// predicted under the result.
func TestReselectedReference(t *testing.T) {
	x, y := testenv.Toy(60, 7)
	k := kernel.SEBias{SE: kernel.SE{Var: 3, Len2: 0.4, Jitter: 1e-3}, Bias: 0.5}
	active := make([]int, 0, 20)
	for i := 0; i < 60; i += 3 {
		active = append(active, i)
	}
	xa, ya := rowsOf(x, active), valuesOf(y, active)
	post, err := ep.Infer(k, xa, ya, nil, &ep.Options{Tol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := ep.FromSites(k, xa, ya, post.Sites)
	if err != nil {
		t.Fatal(err)
	}
	b := &passgp.Binary{Kernel: k, X: xa, Y: ya, Active: active, Post: fixed}
	ctx := context.Background()
	// The held-out latents that the estimate starts from: arbitrary here
	// (inactive points keep theirs, active ones are rescored or kept).
	z, rho := make([]float64, 60), make([]float64, 60)
	for i := range z {
		z[i], rho[i] = float64(i)/60-0.5, 0.5
	}
	ze, re, err := reselected(ctx, b, passgp.DenseRows(x), y, z, rho)
	if err != nil {
		t.Fatal(err)
	}
	for kk, a := range active {
		wz, wr := bruteReselect(t, k, x, y, b, kk)
		if math.Abs(ze[a]-wz) > 1e-7 || math.Abs(re[a]-wr) > 1e-7 {
			t.Errorf("active point %d: latent %.10g, share %.10g; brute force %.10g, %.10g", a, ze[a], re[a], wz, wr)
		}
	}
	for i := range z {
		if i%3 != 0 && (ze[i] != z[i] || re[i] != rho[i]) {
			t.Errorf("inactive point %d changed", i)
		}
	}
}

// bruteReselect returns the latent and prior share of active point kk of b
// with its site removed and the ADF sites of its reselectNear nearest
// inactive points (by prior correlation) added, nearest first, each
// matched on the marginal that the ones before it left; every marginal
// from EP's posterior rebuilt from the sites.
func bruteReselect(t *testing.T, k kernel.Kernel, x *mat.Dense, y []float64, b *passgp.Binary, kk int) (float64, float64) {
	n, d := x.Dims()
	inA := map[int]bool{}
	for _, a := range b.Active {
		inA[a] = true
	}
	row := func(i int) *mat.Dense { return mat.NewDense(1, d, x.RawRowView(i)) }
	diag := func(i int) float64 {
		v := make([]float64, 1)
		k.DiagTo(v, row(i))
		return v[0]
	}
	a := b.Active[kk]
	var cand []int
	corr := map[int]float64{}
	for i := range n {
		if !inA[i] {
			c := mat.NewDense(1, 1, nil)
			k.CrossTo(c, row(i), row(a))
			corr[i] = c.At(0, 0) / math.Sqrt(diag(i)*diag(a))
			cand = append(cand, i)
		}
	}
	sort.SliceStable(cand, func(p, q int) bool { return corr[cand[p]] > corr[cand[q]] })
	cand = cand[:min(reselectNear, len(cand))]
	var rest []int
	var s ep.Sites
	for i, r := range b.Active {
		if i != kk {
			rest = append(rest, r)
			s.Tau = append(s.Tau, b.Post.Sites.Tau[i])
			s.Nu = append(s.Nu, b.Post.Sites.Nu[i])
		}
	}
	// predict returns the marginal of point i as an active latent (its
	// prior carries the jitter) under the sites s on rows rest.
	predict := func(i int) (float64, float64) {
		p, err := ep.FromSites(k, rowsOf(x, rest), valuesOf(y, rest), s)
		if err != nil {
			t.Fatal(err)
		}
		ks := mat.NewDense(1, len(rest), nil)
		k.CrossTo(ks, row(i), rowsOf(x, rest))
		m, v := make([]float64, 1), make([]float64, 1)
		p.PredictCrossTo(m, v, nil, ks, []float64{diag(i) + k.DiagJitter()})
		return m[0], v[0]
	}
	for _, c := range cand {
		m, v := predict(c)
		tc, nc := ep.MatchSite(y[c], m, v, 0)
		rest = append(rest, c)
		s.Tau, s.Nu = append(s.Tau, tc), append(s.Nu, nc)
	}
	m, v := predict(a)
	return m / math.Sqrt(1+v), passgp.PriorShare(v, diag(a))
}

// estimateLatents on a sample of held rows (passgp.HeldOutRows beyond
// 200,000 points) equals reselected on the sample itself: the active
// points numbered among the held rows, those not held left out.
func TestEstimateLatentsHeld(t *testing.T) {
	x, y := testenv.Toy(80, 3)
	k := kernel.SEBias{SE: kernel.SE{Var: 3, Len2: 0.4, Jitter: 1e-3}, Bias: 0.5}
	var active, held []int
	for i := 0; i < 80; i += 3 {
		active = append(active, i)
	}
	for i := 0; i < 80; i++ {
		if i%2 == 0 || i%5 == 0 {
			held = append(held, i)
		}
	}
	xa, ya := rowsOf(x, active), valuesOf(y, active)
	post, err := ep.Infer(k, xa, ya, nil, &ep.Options{Tol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	b := &passgp.Binary{Kernel: k, X: xa, Y: ya, Active: active, Post: post}
	m := &model.Model{Mode: model.Binary, Classes: []float64{-1, 1}, Binaries: []*passgp.Binary{b}}
	truth := make([]int, len(held))
	yh := valuesOf(y, held)
	for i, v := range yh {
		if v > 0 {
			truth[i] = 1
		}
	}
	z, rho := mat.NewDense(len(held), 1, nil), mat.NewDense(len(held), 1, nil)
	for i := range held {
		z.Set(i, 0, float64(i)/80-0.3)
		rho.Set(i, 0, 0.4)
	}
	ze, re, err := estimateLatents(context.Background(), m, passgp.DenseRows(x), y, held, truth, true, z, rho)
	if err != nil {
		t.Fatal(err)
	}
	// The same on the held rows materialised.
	pos := make([]int, len(active))
	for i, a := range active {
		pos[i] = -1
		for p, h := range held {
			if h == a {
				pos[i] = p
			}
		}
	}
	bh := *b
	bh.Active = pos
	wz, wr, err := reselected(context.Background(), &bh, passgp.DenseRows(rowsOf(x, held)), yh, mat.Col(nil, 0, z), mat.Col(nil, 0, rho))
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for i := range held {
		if ze.At(i, 0) != wz[i] || re.At(i, 0) != wr[i] {
			t.Errorf("held row %d: %v, %v; on the sample %v, %v", i, ze.At(i, 0), re.At(i, 0), wz[i], wr[i])
		}
		if ze.At(i, 0) != z.At(i, 0) {
			changed++
		}
	}
	if changed == 0 {
		t.Error("no active point was rescored")
	}
}

// TestEstimateLatentsThreads: the classifiers' latents are the same, bit
// for bit, rescored one after the other or side by side (BLAS single-
// threaded in both, as when classes train side by side).
func TestEstimateLatentsThreads(t *testing.T) {
	old := la.Threads()
	defer la.SetThreads(old)
	x, y := testenv.Toy(90, 5)
	k := kernel.SEBias{SE: kernel.SE{Var: 3, Len2: 0.4, Jitter: 1e-3}, Bias: 0.5}
	truth := make([]int, len(y))
	m := &model.Model{Mode: model.OneVsRest, Classes: []float64{0, 1, 2}}
	for c := range 3 {
		var active []int
		for i := c; i < len(y); i += 3 {
			active = append(active, i)
		}
		yc := make([]float64, len(y))
		for i := range y {
			truth[i] = (i + int(y[i]+1)) % 3
		}
		for i, tr := range truth {
			yc[i] = -1
			if tr == c {
				yc[i] = 1
			}
		}
		xa, ya := rowsOf(x, active), valuesOf(yc, active)
		post, err := ep.Infer(k, xa, ya, nil, &ep.Options{Tol: 1e-10})
		if err != nil {
			t.Fatal(err)
		}
		m.Binaries = append(m.Binaries, &passgp.Binary{Kernel: k, X: xa, Y: ya, Active: active, Post: post})
	}
	z, rho := mat.NewDense(len(y), 3, nil), mat.NewDense(len(y), 3, nil)
	for i := range len(y) {
		for c := range 3 {
			z.Set(i, c, float64(i%7)/7-0.4+0.1*float64(c))
			rho.Set(i, c, 0.3)
		}
	}
	var zs []*mat.Dense
	for _, th := range []int{1, 3} {
		la.SetThreads(th)
		restore := la.LimitBLAS(1) // workers only where BLAS is single-threaded
		ze, re, err := estimateLatents(context.Background(), m, passgp.DenseRows(x), y, nil, truth, true, z, rho)
		restore()
		if err != nil {
			t.Fatal(err)
		}
		zs = append(zs, ze, re)
	}
	if !mat.Equal(zs[0], zs[2]) || !mat.Equal(zs[1], zs[3]) {
		t.Error("latents differ between one worker and three")
	}
	if mat.Equal(zs[0], z) {
		t.Error("no active point was rescored")
	}
}
