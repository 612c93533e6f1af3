package passgp

import (
	"math/rand/v2"
	"slices"

	"github.com/passgp-fast/passgp-fast/score"
)

// HeldOutMax bounds the training points whose held-out latents the
// calibration is fitted on and the held-out estimate reports: beyond it, a
// random sample of HeldOutMax points (HeldOutRows). The held-out pass
// costs O(|A|²) per point, the largest cost of training at large N, while
// the calibration has at most K+3 parameters and an error rate estimated
// from 2·10⁵ points has a standard error below 0.12 percentage points.
const HeldOutMax = 200000

// HeldOutRows returns the training points, of n, whose held-out latents
// training computes (Result.HeldOut, in the same order): nil for all of
// them when n <= HeldOutMax, else a random sample of HeldOutMax drawn from
// seed (Options.Seed), in ascending order.
func HeldOutRows(seed uint64, n int) []int {
	return sampleSorted(seed, 0x510e527fade682d1, n, heldOutMax)
}

// sampleSorted returns m distinct indices of [0, n) in ascending order,
// each m-subset equally likely, drawn from seed and the stream salt by
// selection sampling (Knuth, TAOCP vol. 2, 3.4.2, Algorithm S): O(n)
// draws and O(m) memory, where a permutation of [0, n) would take O(n)
// memory at n = 10⁸. nil when m >= n.
func sampleSorted(seed, salt uint64, n, m int) []int {
	if m >= n {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, seed^salt))
	out := make([]int, 0, m)
	for i := 0; i < n && len(out) < m; i++ {
		if rng.IntN(n-i) < m-len(out) {
			out = append(out, i)
		}
	}
	return out
}

// heldOutMax is HeldOutMax; tests lower it.
var heldOutMax = HeldOutMax

// HeldView is the held-out stage's view of the training data: the rows
// held (nil: all) of x and y and the classifier b with its active points
// numbered among them (-1 for those not held).
func HeldView(x Rows, y []float64, b *Binary, held []int) (Rows, []float64, *Binary) {
	if held == nil {
		return x, y, b
	}
	bh := *b
	bh.Active = make([]int, len(b.Active))
	for k, a := range b.Active {
		bh.Active[k] = position(held, a)
	}
	return score.Subset{X: x, Idx: held}, gather(y, held), &bh
}

// position returns the position of a in the ascending rows, or -1.
func position(rows []int, a int) int {
	if p, ok := slices.BinarySearch(rows, a); ok {
		return p
	}
	return -1
}

// HeldOutRows is the package's HeldOutRows for a run with options o
// (nil: defaults) on n points: all of them (nil) in the invariance stage
// (Augment), whose held-out latents leave out groups of translated images.
func (o *Options) HeldOutRows(n int) []int {
	if o == nil {
		return HeldOutRows(0, n)
	}
	if o.Augment != nil {
		return nil
	}
	return HeldOutRows(o.Seed, n)
}

// Gather returns v[rows] (v itself when rows is nil), as HeldOutRows
// numbers the held-out latents.
func Gather[T any](v []T, rows []int) []T {
	if rows == nil {
		return v
	}
	return gather(v, rows)
}
