package ep

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// TestPooledNotShared checks that the memory a θ search and InferFITC
// hand back to la's scratch pools is none that their results keep: a
// dense posterior from Optimize and a FITC posterior predict bit for bit
// the same after further searches and runs of the same and other sizes
// have reused the pools.
func TestPooledNotShared(t *testing.T) {
	x, y := blobs(60, 3)
	xs, _ := blobs(20, 4)
	k := kernel.SE{Var: 0.01, Len2: 0.01, Jitter: 1e-4}
	r, err := Optimize(k, x, y, nil, &OptimizeOptions{MaxEvals: 15})
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := InferFITCGrad(context.Background(), k, x, y, x.Slice(0, 25, 0, 2).(*mat.Dense), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	predict := func() []float64 {
		out := make([]float64, 4*20)
		r.Post.PredictTo(out[:20], out[20:40], nil, xs)
		f.PredictTo(out[40:60], out[60:], nil, xs)
		return out
	}
	want := predict()
	for _, n := range []int{60, 50, 70} {
		xb, yb := blobs(n, uint64(n))
		if _, err := Optimize(kernel.SE{Var: 2, Len2: 0.3, Jitter: 1e-4}, xb, yb, nil, &OptimizeOptions{MaxEvals: 15}); err != nil {
			t.Fatal(err)
		}
		for _, m := range []int{25, 30} {
			if _, _, err := InferFITCGrad(context.Background(), k, xb, yb, xb.Slice(0, m, 0, 2).(*mat.Dense), nil, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := predict(); !slices.Equal(got, want) {
		t.Fatalf("predictions changed after the pools were reused:\n got %v\nwant %v", got, want)
	}
}

// TestDiscard checks that a θ search releases only the posteriors of
// evaluations that are neither its last nor its best, once each.
func TestDiscard(t *testing.T) {
	x, y := blobs(10, 1)
	post := func() *evaluation {
		p, err := Infer(kernel.SE{Var: 1, Len2: 1, Jitter: 1e-4}, x, y, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return &evaluation{post: p}
	}
	a, b, c := post(), post(), post()
	op := &optimizer{best: a, last: b}
	op.discard(a, b, c, c, nil)
	if a.post == nil || b.post == nil || a.post.l == nil || b.post.l == nil {
		t.Fatal("the best or the last evaluation was released")
	}
	if c.post != nil {
		t.Fatal("a superseded evaluation kept its posterior")
	}
}
