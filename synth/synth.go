// Package synth generates seeded classification tasks whose Bayes error is
// known in closed form (up to a one-dimensional quadrature): Gaussian
// classes with label-flip noise, relevant and irrelevant features, and
// class imbalance, binary or multi-class, of any size (rows are streamed,
// so N = 1e7 needs no more memory than the caller keeps).
//
// # The model
//
// K classes with priors π_c. The first R of the D features are relevant:
// they are split into K contiguous groups G_c (sizes differing by at most
// one) and u_c is the unit vector spread evenly over group c,
// u_c = 1_{G_c}/√|G_c|. The u_c are orthonormal. A point of class c is
//
//	x = Sep·u_c + z,  z ~ N(0, I_D),
//
// so the D - R other features are pure noise. The observed label is the
// class c with probability 1 - Flip and, with probability Flip, one of
// the K-1 other classes chosen uniformly (for K = 2: flipped), independent
// of x.
//
// # Bayes error
//
// With s_c = u_c·x (independent N(Sep·[c = true class], 1)), the clean
// posterior is p(c|x) ∝ π_c exp(Sep·s_c), and the Bayes rule picks the c
// maximising Sep·s_c + log π_c. It wins against j exactly when
// s_j < s_c + (log π_c - log π_j)/Sep, so its accuracy on clean labels is
//
//	A = Σ_c π_c ∫ φ(t - Sep) Π_{j≠c} Φ(t + (log π_c - log π_j)/Sep) dt.
//
// The noisy label has p(ỹ = c|x) = ε/(K-1) + (1 - εK/(K-1)) p(c|x) (ε =
// Flip), increasing in p(c|x) for ε < (K-1)/K, so the Bayes rule is the
// same and its error against the observed labels is
//
//	E = 1 - ε/(K-1) - (1 - εK/(K-1)) A,
//
// for K = 2: E = ε + (1 - 2ε)(1 - A). BayesError evaluates the integral by
// composite Simpson's rule on a fine grid (error far below 1e-9).
package synth

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/passgp-fast/passgp-fast/data"
)

// Task describes a generated classification task. The zero value of an
// optional field means its default.
type Task struct {
	Classes  int       // K >= 2 (0 means 2)
	D        int       // number of features (>= Relevant)
	Relevant int       // R relevant features, K <= R <= D (0 means min(D, max(K, 5)))
	Sep      float64   // distance of each class mean from the origin (0 means 3)
	Flip     float64   // label-flip rate ε in [0, (K-1)/K)
	Priors   []float64 // class priors π_c (nil: equal); normalised to sum 1
}

// resolved is a validated Task with defaults applied.
type resolved struct {
	k, d, r   int
	sep, flip float64
	priors    []float64
	cum       []float64 // cumulative priors
	groups    [][2]int  // [start, end) of each class's relevant group
}

func (t Task) resolve() (resolved, error) {
	var r resolved
	r.k = t.Classes
	if r.k == 0 {
		r.k = 2
	}
	if r.k < 2 {
		return r, fmt.Errorf("synth: Classes = %d, want at least 2", t.Classes)
	}
	r.d = t.D
	if r.d < 1 {
		return r, fmt.Errorf("synth: D = %d, want at least 1", t.D)
	}
	r.r = t.Relevant
	if r.r == 0 {
		r.r = min(r.d, max(r.k, 5))
	}
	if r.r < r.k || r.r > r.d {
		return r, fmt.Errorf("synth: Relevant = %d, want between Classes = %d and D = %d", r.r, r.k, r.d)
	}
	r.sep = t.Sep
	if r.sep == 0 {
		r.sep = 3
	}
	if !(r.sep > 0) || math.IsInf(r.sep, 0) {
		return r, fmt.Errorf("synth: Sep = %v, want positive and finite", t.Sep)
	}
	r.flip = t.Flip
	if !(r.flip >= 0) || r.flip >= float64(r.k-1)/float64(r.k) {
		return r, fmt.Errorf("synth: Flip = %v, want in [0, %v)", t.Flip, float64(r.k-1)/float64(r.k))
	}
	r.priors = make([]float64, r.k)
	if t.Priors == nil {
		for c := range r.priors {
			r.priors[c] = 1 / float64(r.k)
		}
	} else {
		if len(t.Priors) != r.k {
			return r, fmt.Errorf("synth: %d priors for %d classes", len(t.Priors), r.k)
		}
		var s float64
		for _, p := range t.Priors {
			if !(p > 0) || math.IsInf(p, 0) {
				return r, fmt.Errorf("synth: prior %v, want positive and finite", p)
			}
			s += p
		}
		for c, p := range t.Priors {
			r.priors[c] = p / s
		}
	}
	r.cum = make([]float64, r.k)
	var s float64
	for c, p := range r.priors {
		s += p
		r.cum[c] = s
	}
	r.cum[r.k-1] = 1
	r.groups = make([][2]int, r.k)
	for c := range r.groups {
		r.groups[c] = [2]int{c * r.r / r.k, (c + 1) * r.r / r.k}
	}
	return r, nil
}

// Validate reports whether the task is well defined.
func (t Task) Validate() error {
	_, err := t.resolve()
	return err
}

// Label returns the data label of class c: -1 and +1 for a binary task
// (class 1 is the positive one), c otherwise.
func (t Task) Label(c int) float64 {
	if t.Classes <= 2 {
		return float64(2*c - 1)
	}
	return float64(c)
}

// Generator streams the rows of a task from a seed. Rows are a function
// of the seed and their index only through the order of generation: the
// first n rows of a longer run are the n rows of a shorter one.
type Generator struct {
	t    Task
	r    resolved
	rng  *rand.Rand
	inv  []float64 // Sep/√|G_c|
	Rows int       // rows generated so far
}

// NewGenerator returns a generator of t's rows seeded by seed.
func NewGenerator(t Task, seed uint64) (*Generator, error) {
	r, err := t.resolve()
	if err != nil {
		return nil, err
	}
	g := &Generator{t: t, r: r, rng: rand.New(rand.NewPCG(seed, 0x5eed5eed)), inv: make([]float64, r.k)}
	for c, gr := range r.groups {
		g.inv[c] = r.sep / math.Sqrt(float64(gr[1]-gr[0]))
	}
	return g, nil
}

// Next fills x (length D) with the next row's features and returns its
// true class and its observed (possibly flipped) class.
func (g *Generator) Next(x []float64) (class, observed int) {
	r := &g.r
	if len(x) != r.d {
		panic(fmt.Sprintf("synth: row buffer has %d entries, task has %d features", len(x), r.d))
	}
	u := g.rng.Float64()
	for class = 0; class < r.k-1 && u >= r.cum[class]; class++ {
	}
	for j := range x {
		x[j] = g.rng.NormFloat64()
	}
	gr := r.groups[class]
	for j := gr[0]; j < gr[1]; j++ {
		x[j] += g.inv[class]
	}
	observed = class
	if g.rng.Float64() < r.flip {
		o := g.rng.IntN(r.k - 1)
		if o >= class {
			o++
		}
		observed = o
	}
	g.Rows++
	return class, observed
}

// Dataset returns n rows of t from seed as a data.Dataset (labels by
// Task.Label of the observed class).
func Dataset(t Task, n int, seed uint64) (*data.Dataset, error) {
	g, err := NewGenerator(t, seed)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("synth: n = %d", n)
	}
	d := g.r.d
	ds := &data.Dataset{X: make([]float64, n*d), N: n, D: d, Y: make([]float64, n), Source: "synth"}
	for i := 0; i < n; i++ {
		_, o := g.Next(ds.X[i*d : (i+1)*d])
		ds.Y[i] = t.Label(o)
	}
	return ds, nil
}

// WriteLIBSVM writes n rows of t from seed to w in LIBSVM format (every
// feature written, with the shortest representation that reads back to
// the same float64), holding one row at a time.
func WriteLIBSVM(w io.Writer, t Task, n int, seed uint64) error {
	g, err := NewGenerator(t, seed)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	x := make([]float64, g.r.d)
	var buf []byte
	for i := 0; i < n; i++ {
		_, o := g.Next(x)
		buf = appendRow(buf[:0], t.Label(o), x)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Bayes returns the Bayes rule's class for x: argmax_c Sep·u_c·x + log π_c.
func (t Task) Bayes(x []float64) int {
	r, err := t.resolve()
	if err != nil {
		panic(err)
	}
	best, bc := math.Inf(-1), 0
	for c, gr := range r.groups {
		var s float64
		for _, v := range x[gr[0]:gr[1]] {
			s += v
		}
		s *= r.sep / math.Sqrt(float64(gr[1]-gr[0]))
		if v := s + math.Log(r.priors[c]); v > best {
			best, bc = v, c
		}
	}
	return bc
}

// BayesError returns the Bayes error against the observed (noisy) labels
// and against the true classes (see the package documentation).
func (t Task) BayesError() (noisy, clean float64, err error) {
	r, err := t.resolve()
	if err != nil {
		return 0, 0, err
	}
	var acc float64
	for c, pc := range r.priors {
		off := make([]float64, 0, r.k-1)
		for j, pj := range r.priors {
			if j != c {
				off = append(off, (math.Log(pc)-math.Log(pj))/r.sep)
			}
		}
		f := func(t float64) float64 {
			v := phi(t - r.sep)
			for _, o := range off {
				v *= bigPhi(t + o)
			}
			return v
		}
		acc += pc * simpson(f, r.sep-12, r.sep+12, 24000)
	}
	k := float64(r.k)
	clean = 1 - acc
	noisy = 1 - r.flip/(k-1) - (1-r.flip*k/(k-1))*acc
	return noisy, clean, nil
}

func phi(x float64) float64    { return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) }
func bigPhi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// simpson integrates f over [a, b] with n (even) intervals.
func simpson(f func(float64) float64, a, b float64, n int) float64 {
	h := (b - a) / float64(n)
	s := f(a) + f(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(a+float64(i)*h)
	}
	return s * h / 3
}
