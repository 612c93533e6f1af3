package ep

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/internal/testenv"
	"github.com/passgp-fast/passgp-fast/kernel"
)

const fixtureDir = "../../shared/fixtures/gpml"

// fixture is one GPML reference case (fixtures/gpml/README.md).
type fixture struct {
	Name   string `json:"name"`
	Kernel struct {
		Type   string    `json:"type"`
		Theta  []float64 `json:"theta"`
		Degree int       `json:"degree"`
		C      float64   `json:"c"`
	} `json:"kernel"`
	X             [][]float64 `json:"X"`
	Y             []float64   `json:"y"`
	Xs            [][]float64 `json:"Xs"`
	LogZ          float64     `json:"log_z"`
	Grad          []float64   `json:"grad_log_theta"`
	SiteTau       []float64   `json:"site_tau"`
	SiteNu        []float64   `json:"site_nu"`
	PostMean      []float64   `json:"post_mean"`
	PostVar       []float64   `json:"post_var"`
	CavityMean    []float64   `json:"cavity_mean"`
	CavityVar     []float64   `json:"cavity_var"`
	CavityProb    []float64   `json:"cavity_prob"`
	PredMean      []float64   `json:"pred_mean"`
	PredVar       []float64   `json:"pred_var"`
	PredProb      []float64   `json:"pred_prob"`
	EPSweeps      int         `json:"ep_sweeps"`
	DefaultTolRun struct {
		LogZ float64   `json:"log_z"`
		Grad []float64 `json:"grad_log_theta"`
	} `json:"default_tol_run"`
	Opt *struct {
		Theta0   []float64 `json:"theta0"`
		Free     []bool    `json:"free"`
		ThetaOpt []float64 `json:"theta_opt"`
		LogZ0    float64   `json:"log_z0"`
		LogZOpt  float64   `json:"log_z_opt"`
	} `json:"opt"`
}

func loadFixtures(t testing.TB) []*fixture {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	if len(files) == 0 {
		testenv.MissingShared(t, "no GPML fixtures in %s", fixtureDir)
	}
	var fs []*fixture
	for _, f := range files {
		fs = append(fs, loadFixture(t, f))
	}
	return fs
}

var (
	fixtureMu    sync.Mutex
	fixtureCache = map[string]*fixture{}
)

// loadFixture parses a fixture file once per test binary.
func loadFixture(t testing.TB, path string) *fixture {
	t.Helper()
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	if f := fixtureCache[path]; f != nil {
		return f
	}
	b, err := os.ReadFile(path)
	if err != nil {
		testenv.MissingShared(t, "fixture %s: %v", path, err)
	}
	var f fixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	fixtureCache[path] = &f
	return &f
}

func denseOf(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// kernelOf maps a fixture's kernel to ours. The poly fixture uses inputs
// already scaled by 1/28 and c = 1, i.e. Gamma = 1.
func (f *fixture) kernelOf(t testing.TB, theta []float64) kernel.Kernel {
	t.Helper()
	gamma := 0.0
	if f.Kernel.Type == "poly" {
		gamma = 1
	}
	k, err := kernel.New(f.Kernel.Type, theta, f.Kernel.Degree, gamma)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// tolerances of fixtures/gpml/README.md, tables (a) and (b).
type tolerances struct {
	logZ, grad, sites, post, cavVar, cavProb, predMean, predVar, predProb float64
}

var (
	tightTol   = tolerances{1e-8, 1e-6, 1e-7, 1e-7, 1e-7, 1e-8, 1e-7, 1e-7, 1e-8}
	defaultTol = tolerances{1e-5, 3e-2, 1e-2, 5e-3, 3e-2, 2e-3, 5e-3, 3e-2, 3e-4}
)

func maxAbsDiff(a, b []float64) (float64, int) {
	var m float64
	at := -1
	for i := range a {
		d := math.Abs(a[i] - b[i])
		if math.IsNaN(d) {
			return math.Inf(1), i
		}
		if d > m {
			m, at = d, i
		}
	}
	return m, at
}

func checkField(t *testing.T, name string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: len %d, want %d", name, len(got), len(want))
		return
	}
	if d, i := maxAbsDiff(got, want); d > tol {
		t.Errorf("%s: max |diff| = %.3g at %d (got %v, want %v), tol %.g", name, d, i, got[i], want[i], tol)
	}
}

func compareFixture(t *testing.T, f *fixture, p *Posterior, tol tolerances, diffTol bool) {
	t.Helper()
	if d := math.Abs(p.LogZ - f.LogZ); d > tol.logZ {
		t.Errorf("log_z = %.17g, want %.17g (diff %.3g, tol %.g)", p.LogZ, f.LogZ, d, tol.logZ)
	}
	checkField(t, "grad_log_theta", p.GradientTo(nil), f.Grad, tol.grad)
	checkField(t, "site_tau", p.Sites.Tau, f.SiteTau, tol.sites)
	checkField(t, "site_nu", p.Sites.Nu, f.SiteNu, tol.sites)
	checkField(t, "post_mean", p.Mean, f.PostMean, tol.post)
	checkField(t, "post_var", p.Var, f.PostVar, tol.cavVar)
	n := len(f.Y)
	cm, cv, cp := make([]float64, n), make([]float64, n), make([]float64, n)
	p.CavityTo(cm, cv)
	p.CavityProbTo(cp)
	checkField(t, "cavity_mean", cm, f.CavityMean, tol.post)
	checkField(t, "cavity_var", cv, f.CavityVar, tol.cavVar)
	checkField(t, "cavity_prob", cp, f.CavityProb, tol.cavProb)
	m := len(f.Xs)
	pm, pv, pp := make([]float64, m), make([]float64, m), make([]float64, m)
	p.PredictTo(pm, pv, pp, denseOf(f.Xs))
	checkField(t, "pred_mean", pm, f.PredMean, tol.predMean)
	checkField(t, "pred_var", pv, f.PredVar, tol.predVar)
	checkField(t, "pred_prob", pp, f.PredProb, tol.predProb)
}

var schedules = []Schedule{Parallel, Sequential}

// TestFixturesTight runs both schedules to a tight tolerance and compares
// every field with README table (a).
func TestFixturesTight(t *testing.T) {
	for _, f := range loadFixtures(t) {
		x := denseOf(f.X)
		k := f.kernelOf(t, f.Kernel.Theta)
		for _, s := range schedules {
			t.Run(f.Name+"/"+s.String(), func(t *testing.T) {
				p, err := Infer(k, x, f.Y, nil, &Options{Schedule: s, Damping: testDamping, Tol: 1e-12, SiteTol: 1e-11, MaxSweeps: 1000})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%d sweeps (GPML %d)", p.Sweeps, f.EPSweeps)
				compareFixture(t, f, p, tightTol, false)
			})
		}
	}
}

// TestFixturesDefault runs both schedules with the default stopping rule
// and compares with README table (b).
func TestFixturesDefault(t *testing.T) {
	for _, f := range loadFixtures(t) {
		x := denseOf(f.X)
		k := f.kernelOf(t, f.Kernel.Theta)
		for _, s := range schedules {
			t.Run(f.Name+"/"+s.String(), func(t *testing.T) {
				p, err := Infer(k, x, f.Y, nil, &Options{Schedule: s, Damping: testDamping})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%d sweeps", p.Sweeps)
				compareFixture(t, f, p, defaultTol, false)
			})
		}
	}
}

var testDamping = func() float64 {
	var d float64
	if s := os.Getenv("EP_DAMPING"); s != "" {
		json.Unmarshal([]byte(s), &d)
	}
	return d
}()
