package cli

import (
	"cmp"

	passgpfast "github.com/passgp-fast/passgp-fast"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/passgp"
	scoring "github.com/passgp-fast/passgp-fast/score"
)

// Memory of a streamed training run (FitBinary), which holds no N×D
// matrix:
//   - pointBytes per training point: the label, the ±1 targets, the
//     32-bit batch order, the active mask and the held-out latents;
//   - per thread (a classifier training or a chunk being scored): the
//     active set's inputs (m·d numbers), posteriorMatrices m×m matrices
//     (EP's Gram matrix and Cholesky factor, the θ search's inverse and
//     its workspace) and a chunk of score.Chunk rows with its Gram
//     block against the active set.
const (
	pointBytes        = 29
	posteriorMatrices = 4
)

// streamThreads returns the threads a streamed run of n points of d
// features may use within --max-mem: want, the threads asked for, or
// fewer, so that the estimate above fits, and an error
// when not even one does. Training's results do not depend on the
// number of threads, so the model is the one more threads would give.
// m is the largest active set a classifier may reach (its budget or
// fixed size); with no budget (--max-active 0) the active set is not
// bounded and only the points and the chunks are counted.
func (t *trainFlags) streamThreads(n, d, want int) (threads int, err error) {
	m := t.activeBound(n)
	per := 8 * (int64(m)*int64(d) + posteriorMatrices*int64(m)*int64(m) + int64(scoring.Chunk)*int64(d+m))
	fixed := pointBytes * int64(n)
	room := (t.df.maxBytes() - fixed) / per
	if room < 1 {
		return 0, errUsage("--max-mem %.3g GiB is less than the %.3g GiB a streamed run on %d points of %d features needs with one thread (%.3g GiB for the points, %.3g GiB per thread at %d active points); raise --max-mem or lower --max-active",
			t.df.maxMemGiB, gib(fixed+per), n, d, gib(fixed), gib(per), m)
	}
	return int(min(int64(want), room)), nil
}

// activeBound is the largest active set of one classifier on n points:
// the budget (--max-active auto: passgp.SqrtBudget) or the fixed size of
// fpassgp, ivm and random (0: --init, as Config.Options resolves it), and
// 0 without a budget.
func (t *trainFlags) activeBound(n int) int {
	c := &t.cfg
	m, _ := passgp.ParseMethod(c.Method)
	switch {
	case m == passgp.FPASSGP || m == passgp.IVM || m == passgp.Random:
		if c.M > 0 {
			return min(c.M, n)
		}
		return min(cmp.Or(c.Init, passgp.InitSize(m, 0)), n)
	case c.MaxActive == passgpfast.AutoMaxActive:
		return passgp.SqrtBudget(n)
	}
	return min(max(c.MaxActive, 0), n)
}

func gib(b int64) float64 { return float64(b) / (1 << 30) }

// limitStreamThreads sets --threads to what --max-mem leaves room for in
// a streamed run of n points of d features (streamThreads) and returns
// the threads asked for when that is fewer (0 otherwise).
func (t *trainFlags) limitStreamThreads(n, d int) (asked int, err error) {
	want := t.threads // 0: all cores
	if want == 0 {
		want = la.Threads()
	}
	got, err := t.streamThreads(n, d, want)
	if err != nil {
		return 0, err
	}
	if got >= want {
		return 0, nil
	}
	t.threads = got
	return want, nil
}
