package model

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// toyBinary trains a small classifier: EP on n random points, then the
// posterior rebuilt with ep.FromSites as passgp does at the end of training.
func toyBinary(t testing.TB, rng *rand.Rand, k kernel.Kernel, n, d int) *passgp.Binary {
	t.Helper()
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		var s float64
		for j := 0; j < d; j++ {
			v := rng.NormFloat64()
			x.Set(i, j, v)
			s += v * float64(j+1)
		}
		y[i] = 1
		if s+0.3*rng.NormFloat64() < 0 {
			y[i] = -1
		}
	}
	post, err := ep.Infer(k, x, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	post, err = ep.FromSites(k, x, y, post.Sites)
	if err != nil {
		t.Fatal(err)
	}
	active := make([]int, n)
	for i := range active {
		active[i] = 3*i + 1
	}
	active[n-1] = -1 // an augmented point
	return &passgp.Binary{Kernel: k, X: x, Y: y, Active: active, Post: post}
}

func toyModel(t testing.TB, mode Mode, k kernel.Kernel, seed uint64) *Model {
	rng := rand.New(rand.NewPCG(seed, 7))
	const d = 5
	m := &Model{Mode: mode, Options: []byte(`{"method":"passgp","init":300}`)}
	switch mode {
	case Binary:
		m.Classes = []float64{-1, 1}
	case PositiveVsRest:
		m.Classes = []float64{3}
	case OneVsRest:
		m.Classes = []float64{0, 1.5, 7}
	}
	nb := 1
	if mode == OneVsRest {
		nb = len(m.Classes)
	}
	for i := 0; i < nb; i++ {
		m.Binaries = append(m.Binaries, toyBinary(t, rng, k, 20+7*i, d))
		m.History = append(m.History, []Batch{{Pass: 0, Batch: 1, Active: 20, Included: 3, Deleted: 1, LogZ: -12.5}})
	}
	return m
}

var kernels = []kernel.Kernel{
	kernel.SE{Var: 2, Len2: 3, Jitter: 1e-3},
	kernel.SELin{SE: kernel.SE{Var: 1.5, Len2: 2, Jitter: 1e-2}, Lin: 0.2},
	kernel.SEBias{SE: kernel.SE{Var: 1.5, Len2: 2, Jitter: 1e-2}, Bias: 0.7},
	kernel.Poly{Var: 1, Jitter: 1e-2, Degree: 3, Gamma: 0},
	kernel.Poly{Var: 0.5, Jitter: 1e-2, Degree: 2, Gamma: 0.3},
	kernel.SEARD{Var: 2, Len2: []float64{1, 3, 0.5, 9, 2.5}, Jitter: 1e-3}, // d = 5, as toyModel
	kernel.SEARDBias{SEARD: kernel.SEARD{Var: 1.5, Len2: []float64{2, 2, 40, 1, 0.7}, Jitter: 1e-2}, Bias: 0.7},
}

func testInputs(seed uint64, n, d int) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 99))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, 1.5*rng.NormFloat64())
		}
	}
	return x
}

func TestRoundTripBitIdentical(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []Mode{Binary, OneVsRest, PositiveVsRest} {
		for ki, k := range kernels {
			m := toyModel(t, mode, k, uint64(ki+1))
			path := filepath.Join(dir, "m.pgp")
			if err := Save(path, m); err != nil {
				t.Fatalf("%v %s: %v", mode, k.Name(), err)
			}
			got, err := Load(path)
			if err != nil {
				t.Fatalf("%v %s: %v", mode, k.Name(), err)
			}
			if got.Mode != m.Mode || !bitsEqual(got.Classes, m.Classes) || string(got.Options) != string(m.Options) {
				t.Fatalf("%v %s: header fields differ", mode, k.Name())
			}
			// Name and θ bits, since the ARD kernels hold a slice (not comparable with !=).
			if gk, mk := got.Binaries[0].Kernel, m.Binaries[0].Kernel; gk.Name() != mk.Name() || !bitsEqual(gk.Params(), mk.Params()) {
				t.Fatalf("%v: kernel %#v, want %#v", mode, got.Binaries[0].Kernel, m.Binaries[0].Kernel)
			}
			for i, b := range m.Binaries {
				g := got.Binaries[i]
				if !bitsEqual(g.Post.Sites.Tau, b.Post.Sites.Tau) || !bitsEqual(g.Post.Sites.Nu, b.Post.Sites.Nu) ||
					!bitsEqual(g.Y, b.Y) || !bitsEqual(g.X.RawMatrix().Data, b.X.RawMatrix().Data) ||
					!intsEqual(g.Active, b.Active) || g.Post.LogZ != b.Post.LogZ || !bitsEqual(g.Post.Alpha, b.Post.Alpha) {
					t.Fatalf("%v %s classifier %d: stored fields differ", mode, k.Name(), i)
				}
				if len(got.History[i]) != 1 || got.History[i][0] != m.History[i][0] {
					t.Fatalf("history differs: %v", got.History[i])
				}
			}
			x := testInputs(uint64(ki), 37, 5)
			want := mat.NewDense(37, len(m.Outputs()), nil)
			have := mat.NewDense(37, len(m.Outputs()), nil)
			m.ProbTo(want, x)
			got.ProbTo(have, x)
			if !bitsEqual(want.RawMatrix().Data, have.RawMatrix().Data) {
				t.Fatalf("%v %s: predictions of the loaded model differ", mode, k.Name())
			}
			for _, p := range want.RawMatrix().Data {
				if !(p >= 0 && p <= 1) {
					t.Fatalf("probability %v", p)
				}
			}
		}
	}
}

func bitsEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func intsEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestProbabilities(t *testing.T) {
	m := toyModel(t, OneVsRest, kernels[0], 3)
	x := testInputs(5, 11, 5)
	raw := mat.NewDense(11, 3, nil)
	m.RawTo(raw, x)
	p := mat.NewDense(11, 3, nil)
	m.ProbTo(p, x)
	for i := 0; i < 11; i++ {
		var s float64
		for k := 0; k < 3; k++ {
			s += p.At(i, k)
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("row %d sums to %v", i, s)
		}
		if argmaxRow(p.RawRowView(i)) != argmaxRow(raw.RawRowView(i)) {
			t.Fatalf("row %d: normalisation changed the decision", i)
		}
	}
	b := toyModel(t, Binary, kernels[0], 4)
	q := make([]float64, 11)
	b.Binaries[0].PredictTo(q, x)
	pb := mat.NewDense(11, 2, nil)
	b.ProbTo(pb, x)
	for i := range q {
		// p(+) is q bit for bit; p(−) is Φ(−z), computed directly (it
		// equals 1 − q up to the rounding of 1 − q).
		if pb.At(i, 1) != q[i] || math.Abs(pb.At(i, 0)-(1-q[i])) > 1e-15 {
			t.Fatalf("binary row %d: %v %v, q %v", i, pb.At(i, 0), pb.At(i, 1), q[i])
		}
	}
}

func argmaxRow(v []float64) int {
	b := 0
	for i := range v {
		if v[i] > v[b] {
			b = i
		}
	}
	return b
}

func validFile(t testing.TB) []byte {
	b, err := Encode(toyModel(t, OneVsRest, kernels[0], 1))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// reframe recomputes the checksum after the payload was edited.
func reframe(b []byte) []byte {
	n := binary.LittleEndian.Uint64(b[16:])
	return frame(Kind(binary.LittleEndian.Uint32(b[12:])), b[headerSize:headerSize+int(n)])
}

func TestCorruptFiles(t *testing.T) {
	good := validFile(t)
	dir := t.TempDir()
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	cases := []struct {
		name string
		b    []byte
		want error
		msg  string
	}{
		{"empty", nil, ErrTruncated, "truncated"},
		{"magic prefix only", good[:5], ErrTruncated, "truncated"},
		{"header cut", good[:20], ErrTruncated, "truncated"},
		{"payload cut", good[:len(good)/2], ErrTruncated, "truncated"},
		{"checksum cut", good[:len(good)-1], ErrTruncated, "truncated"},
		{"foreign", []byte("%PDF-1.7 not a model at all, certainly not"), ErrMagic, "magic"},
		{"foreign short", []byte("hi"), ErrMagic, "magic"},
		{"future version", mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], Version+1); return b }), ErrVersion, fmt.Sprintf("version %d", Version+1)},
		{"version zero", mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 0); return b }), ErrCorrupt, "version 0"},
		{"payload bit flip", mutate(func(b []byte) []byte { b[headerSize+40] ^= 4; return b }), ErrCorrupt, "checksum"},
		{"checksum bit flip", mutate(func(b []byte) []byte { b[len(b)-3] ^= 1; return b }), ErrCorrupt, "checksum"},
		{"kind bit flip", mutate(func(b []byte) []byte { b[12] ^= 2; return b }), ErrCorrupt, "checksum"},
		{"length grown", mutate(func(b []byte) []byte { b[16]++; return b }), ErrTruncated, "truncated"},
		{"trailing bytes", append(bytes.Clone(good), 0, 0, 0), ErrCorrupt, "unexpected bytes"},
		{"checkpoint as model", mutate(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[12:], uint32(KindCheckpoint))
			return reframe(b)
		}), ErrKind, "checkpoint"},
		{"bad mode", mutate(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[headerSize:], 9)
			return reframe(b)
		}), ErrPayload, "mode"},
		{"payload cut with valid checksum", mutate(func(b []byte) []byte {
			n := binary.LittleEndian.Uint64(b[16:])
			return frame(KindModel, b[headerSize:headerSize+int(n)-9])
		}), ErrPayload, "payload"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".pgp")
		if err := os.WriteFile(path, c.b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
			continue
		}
		if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: message %q should name the file and say %q", c.name, err, c.msg)
		}
		if _, err := Decode(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: Decode error %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing.pgp")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestInvalidPayloads edits decoded fields and re-encodes with a valid
// checksum: each must be rejected by validation, not by a panic.
func TestInvalidPayloads(t *testing.T) {
	m := toyModel(t, Binary, kernels[0], 2)
	r, err := m.record()
	if err != nil {
		t.Fatal(err)
	}
	edits := map[string]func(r *record){
		"label not ±1":       func(r *record) { r.Classifiers[0].Y[0] = 0.5 },
		"negative precision": func(r *record) { r.Classifiers[0].Tau[1] = -1 },
		"NaN site":           func(r *record) { r.Classifiers[0].Nu[1] = math.NaN() },
		"Inf input":          func(r *record) { r.Classifiers[0].X[3] = math.Inf(1) },
		"unknown kernel":     func(r *record) { r.Classifiers[0].Kernel = "matern" },
		"theta count":        func(r *record) { r.Classifiers[0].Theta = r.Classifiers[0].Theta[:2] },
		"zero theta":         func(r *record) { r.Classifiers[0].Theta[0] = 0 },
		"classes unsorted":   func(r *record) { r.Classes = []float64{1, -1} },
		"classes count":      func(r *record) { r.Classes = []float64{1} },
		"bad options JSON":   func(r *record) { r.Options = []byte("{") },
		"active index":       func(r *record) { r.Classifiers[0].Active[0] = -7 },
		"two classifiers":    func(r *record) { r.Classifiers = append(r.Classifiers, r.Classifiers[0]) },
		"empty active set":   func(r *record) { c := &r.Classifiers[0]; c.X, c.Y, c.Active, c.Tau, c.Nu = nil, nil, nil, nil, nil },
		"zero dimension":     func(r *record) { r.Classifiers[0].D = 0; r.Classifiers[0].X = nil },
		// An ARD kernel needs d+2 (seard) or d+3 (seard+bias) values: the se θ has 3 for d = 5.
		"seard theta count": func(r *record) { r.Classifiers[0].Kernel = "seard" },
		"seard+bias theta count": func(r *record) {
			r.Classifiers[0].Kernel = "seard+bias"
			r.Classifiers[0].Theta = []float64{1, 1, 1, 1, 1, 1, 1}
		},
	}
	for name, edit := range edits {
		rr := *r
		rr.Classes = append([]float64(nil), r.Classes...)
		c := r.Classifiers[0]
		c.X = append([]float64(nil), c.X...)
		c.Y = append([]float64(nil), c.Y...)
		c.Tau = append([]float64(nil), c.Tau...)
		c.Nu = append([]float64(nil), c.Nu...)
		c.Theta = append([]float64(nil), c.Theta...)
		c.Active = append([]int(nil), c.Active...)
		rr.Classifiers = []Classifier{c}
		edit(&rr)
		_, err := Decode(frame(KindModel, encodeRecord(&rr)))
		if !errors.Is(err, ErrPayload) {
			t.Errorf("%s: error %v, want ErrPayload", name, err)
		}
	}
}

func TestAtomicSave(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.pgp")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := toyModel(t, Binary, kernels[1], 5)
	if err := Save(path, m); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("directory holds %d entries after Save, want 1 (no temporary files)", len(ents))
	}
	if _, err := Load(path); err != nil {
		t.Fatal(err)
	}
	// An invalid model is refused and the old file kept.
	bad := toyModel(t, Binary, kernels[1], 5)
	bad.Classes = []float64{2, 1}
	if err := Save(path, bad); err == nil {
		t.Fatal("saving an invalid model succeeded")
	}
	if _, err := Load(path); err != nil {
		t.Fatalf("old model damaged: %v", err)
	}
	if err := Save(filepath.Join(dir, "no", "such", "dir", "m.pgp"), m); err == nil {
		t.Fatal("saving into a missing directory succeeded")
	}
}

func TestCheckpointRoundTrip(t *testing.T) {
	m := toyModel(t, OneVsRest, kernels[0], 6)
	perm := make([]int32, 200)
	for i := range perm {
		perm[i] = int32(199 - i)
	}
	c := &Checkpoint{Options: []byte(`{"seed":1}`), Mode: OneVsRest, Classes: m.Classes, N: 200, D: 5,
		Done: []Classifier{FromBinary(m.Binaries[0])}, Current: 1,
		State: &passgp.State{Method: passgp.FPASSGP, N: 200, D: 5, Theta: []float64{1, 2, 3}, Active: []int{4, 9},
			Tau: []float64{0.5, 0}, Nu: []float64{0.1, 0}, Perm: perm, Bounds: []int{0, 100, 200}, Pass: 1, Batch: 1, Done: 3,
			Stats: []passgp.BatchStats{{Pass: 0, Batch: 0, Active: 2, LogZ: -3.5, Theta: []float64{1, 2, 3}}}}}
	h := HeldOut{Class: c.Done[0].Class, Z: make([]float64, 200), Share: make([]float64, 200), Lost: 3}
	for i := range h.Z {
		h.Z[i], h.Share[i] = float64(i)/7-10, float64(i)/200
	}
	c.Held = []HeldOut{h}
	path := filepath.Join(t.TempDir(), "ck")
	if err := SaveCheckpoint(path, c); err != nil {
		t.Fatal(err)
	}
	got, err := LoadCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Current != 1 || got.N != 200 || got.State.Method != passgp.FPASSGP || got.State.Stats[0].LogZ != -3.5 ||
		!intsEqual(got.State.Active, []int{4, 9}) || !bitsEqual(got.Done[0].Tau, c.Done[0].Tau) || string(got.Options) != `{"seed":1}` {
		t.Fatalf("checkpoint differs: %+v", got)
	}
	if g := got.HeldOutOf(h.Class); g == nil || !bitsEqual(g.Z, h.Z) || !bitsEqual(g.Share, h.Share) || g.Lost != 3 || got.HeldOutOf(h.Class+1) != nil {
		t.Fatalf("held-out latents after the round trip: %+v", g)
	}
	if _, err := Load(path); !errors.Is(err, ErrKind) {
		t.Fatalf("checkpoint loaded as model: %v", err)
	}
	b, _ := os.ReadFile(path)
	b[headerSize+3] ^= 1
	os.WriteFile(path, b, 0o644)
	if _, err := LoadCheckpoint(path); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
		t.Fatalf("corrupted checkpoint: %v", err)
	}
	bad := *c
	bad.State = &passgp.State{N: 200, D: 5, Active: []int{500}, Tau: []float64{0}, Nu: []float64{0}}
	if _, err := DecodeCheckpoint(mustEncodeCheckpoint(t, &bad)); !errors.Is(err, ErrPayload) {
		t.Fatalf("invalid state: %v", err)
	}
	if _, err := DecodeCheckpoint(frame(KindCheckpoint, []byte("garbage"))); !errors.Is(err, ErrPayload) {
		t.Fatalf("garbage checkpoint: %v", err)
	}
}

func mustEncodeCheckpoint(t testing.TB, c *Checkpoint) []byte {
	b, err := EncodeCheckpoint(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCraftedCheckpoints: checkpoints whose fields contradict each other
// are refused at decoding, with a message, never a panic later.
func TestCraftedCheckpoints(t *testing.T) {
	m := toyModel(t, OneVsRest, kernels[0], 6)
	good := func() *Checkpoint {
		perm := make([]int32, 10)
		for i := range perm {
			perm[i] = int32(i)
		}
		return &Checkpoint{Options: []byte(`{}`), Mode: OneVsRest, Classes: m.Classes, N: 10, D: 5, Current: 0,
			State: &passgp.State{Method: passgp.PASSGP, N: 10, D: 5, Theta: []float64{1, 2, 3}, Active: []int{1, 2},
				Tau: []float64{1, 0}, Nu: []float64{0.5, 0}, Perm: perm, Bounds: []int{0, 5, 10}}}
	}
	if _, err := DecodeCheckpoint(mustEncodeCheckpoint(t, good())); err != nil {
		t.Fatalf("valid checkpoint refused: %v", err)
	}
	// withDone has a finished classifier (class 0) and its held-out
	// latents.
	withDone := func(c *Checkpoint) {
		c.Done, c.Current = []Classifier{FromBinary(m.Binaries[0])}, 1
		c.Held = []HeldOut{{Z: make([]float64, 10), Share: make([]float64, 10)}}
	}
	done := good()
	withDone(done)
	if _, err := DecodeCheckpoint(mustEncodeCheckpoint(t, done)); err != nil {
		t.Fatalf("valid checkpoint with held-out latents refused: %v", err)
	}
	for _, tc := range []struct {
		name  string
		spoil func(c *Checkpoint)
		msg   string
	}{
		{"held-out latents of another class", func(c *Checkpoint) { withDone(c); c.Held[0].Class = 2 }, "held-out latents of class 2"},
		{"held-out latents twice", func(c *Checkpoint) { withDone(c); c.Held = append(c.Held, c.Held[0]) }, "held-out entries"},
		{"held-out latents short", func(c *Checkpoint) { withDone(c); c.Held[0].Z = c.Held[0].Z[:9] }, "9/10 held-out"},
		{"held-out latent NaN", func(c *Checkpoint) { withDone(c); c.Held[0].Z[3] = math.NaN() }, "point 3"},
		{"held-out share above 1", func(c *Checkpoint) { withDone(c); c.Held[0].Share[4] = 1.5 }, "point 4"},
		{"held-out lost beyond n", func(c *Checkpoint) { withDone(c); c.Held[0].Lost = 11 }, "11 lost"},
		{"mode", func(c *Checkpoint) { c.Mode = 9 }, "invalid mode"},
		{"binary with 3 classes", func(c *Checkpoint) { c.Mode = Binary }, "classes"},
		{"classes unsorted", func(c *Checkpoint) { c.Classes = []float64{2, 1, 3} }, "ascending"},
		{"classes NaN", func(c *Checkpoint) { c.Classes = []float64{0, math.NaN()} }, "finite"},
		{"current beyond classes", func(c *Checkpoint) {
			c.Mode, c.Classes = PositiveVsRest, []float64{1}
			c.Current, c.Done = 2, []Classifier{FromBinary(m.Binaries[0]), FromBinary(m.Binaries[1])}
		}, "classifier 2 of 1"},
		{"perm short", func(c *Checkpoint) { c.State.Perm = c.State.Perm[:3] }, "permutation"},
		{"perm out of range", func(c *Checkpoint) { c.State.Perm[4] = 1 << 30 }, "permutation"},
		{"perm repeats", func(c *Checkpoint) { c.State.Perm[4] = 3 }, "permutation"},
		{"bounds beyond n", func(c *Checkpoint) { c.State.Bounds = []int{0, 50, 100} }, "bounds"},
		{"bounds decrease", func(c *Checkpoint) { c.State.Bounds = []int{0, 8, 3, 10} }, "decrease"},
		{"bounds single", func(c *Checkpoint) { c.State.Bounds = []int{0} }, "bounds"},
		{"batch beyond", func(c *Checkpoint) { c.State.Batch = 2 }, "batch 2"},
		{"pass negative", func(c *Checkpoint) { c.State.Pass = -1 }, "pass -1"},
		{"method", func(c *Checkpoint) { c.State.Method = 42 }, "method"},
		{"active repeats", func(c *Checkpoint) { c.State.Active = []int{2, 2} }, "repeated"},
		{"site negative", func(c *Checkpoint) { c.State.Tau[0] = -1 }, "site"},
		{"site NaN", func(c *Checkpoint) { c.State.Nu[1] = math.NaN() }, "site"},
		{"theta", func(c *Checkpoint) { c.State.Theta[1] = 0 }, "hyperparameters"},
	} {
		c := good()
		tc.spoil(c)
		_, err := DecodeCheckpoint(mustEncodeCheckpoint(t, c))
		if !errors.Is(err, ErrPayload) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: err = %v, want ErrPayload mentioning %q", tc.name, err, tc.msg)
		}
	}
	c := good()
	if err := c.CheckData(10, 5, []float64{0, 1.5, 7, 0, 0, 1.5, 7, 0, 1.5, 0}); err != nil {
		t.Errorf("matching data refused: %v", err)
	}
	if err := c.CheckData(10, 5, []float64{0, 1, 7, 0, 0, 1, 7, 0, 1, 0}); err == nil || !strings.Contains(err.Error(), "class 1.5") {
		t.Errorf("class missing from the data: %v", err)
	}
	if err := c.CheckData(11, 5, make([]float64, 11)); err == nil {
		t.Error("shape mismatch accepted")
	}
}

// TestHugeActiveSetRefused: a small, well-formed model file (valid
// checksum) whose classifier claims |A| = 100,000 in one dimension is
// refused before the 80 GB posterior is allocated.
func TestHugeActiveSetRefused(t *testing.T) {
	const n = 100000
	c := Classifier{Kernel: "se", Theta: []float64{1, 1, 1e-6}, D: 1, X: make([]float64, n), Y: make([]float64, n),
		Active: make([]int, n), Tau: make([]float64, n), Nu: make([]float64, n)}
	for i := range c.Y {
		c.Y[i] = float64(2*(i%2) - 1)
		c.X[i] = float64(i)
		c.Active[i] = i
	}
	r := &record{Mode: Binary, Classes: []float64{-1, 1}, Classifiers: []Classifier{c}}
	b := frame(KindModel, encodeRecord(r))
	if len(b) > 8<<20 {
		t.Fatalf("test file is %d bytes", len(b))
	}
	_, err := Decode(b)
	if !errors.Is(err, ErrPayload) || !strings.Contains(err.Error(), "largest |A| = 100000") {
		t.Fatalf("err = %v", err)
	}
	path := filepath.Join(t.TempDir(), "huge.pgp")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Load: %v", err)
	}
	// The limit is the caller's to raise or lower.
	small := toyModel(t, Binary, kernels[0], 1)
	sb, err := Encode(small)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeWith(sb, LoadOptions{MaxBytes: 64}); !errors.Is(err, ErrPayload) {
		t.Errorf("a 64-byte limit accepted a model: %v", err)
	}
	if _, err := DecodeWith(sb, LoadOptions{MaxBytes: 1 << 30}); err != nil {
		t.Error(err)
	}
}

// TestLatentDecisionAndProb: decisions follow the latent (no tie where
// Φ rounds to 1) and binary probabilities keep both tails.
func TestLatentDecisionAndProb(t *testing.T) {
	ovr := &Model{Mode: OneVsRest, Classes: []float64{0, 1, 2}, Binaries: make([]*passgp.Binary, 3)}
	z := mat.NewDense(2, 3, []float64{9, 12, 3, -1, -2, -0.5})
	dec := make([]int, 2)
	ovr.DecideFromLatent(dec, z, nil)
	if dec[0] != 1 || dec[1] != 2 {
		t.Errorf("one-vs-rest decisions %v, want [1 2]", dec)
	}
	for _, tc := range []struct {
		mode     Mode
		classes  []float64
		pos, neg int
	}{{Binary, []float64{-1, 1}, 1, 0}, {PositiveVsRest, []float64{3}, 0, 1}} {
		m := &Model{Mode: tc.mode, Classes: tc.classes, Binaries: make([]*passgp.Binary, 1)}
		zb := mat.NewDense(3, 1, []float64{10, -0.2, 0})
		prob := mat.NewDense(3, 2, nil)
		m.ProbFromLatent(prob, zb, nil)
		if p := prob.At(0, tc.neg); !(p > 7e-24 && p < 8e-24) {
			t.Errorf("%v: Φ(-10) = %v, want 7.6e-24 (not 1 - Φ(10) = 0)", tc.mode, p)
		}
		d := make([]int, 3)
		m.DecideFromLatent(d, zb, nil)
		if d[0] != tc.pos || d[1] != tc.neg || d[2] != tc.neg {
			t.Errorf("%v: decisions %v", tc.mode, d)
		}
	}
}
