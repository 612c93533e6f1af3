package bench

import (
	"context"
	"math"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
)

// epProblem is a synthetic classification problem of m points in d = 256
// dimensions (the USPS shape) with labels from a smooth function of the
// inputs, and the converged EP sites of the SE kernel on it.
type epProblem struct {
	k     kernel.Kernel
	x     *mat.Dense
	y     []float64
	sites ep.Sites
}

var (
	epProblemsMu sync.Mutex
	epProblems   = map[int]*epProblem{}
)

const epBenchD = 256

func getEPProblem(b *testing.B, m int) *epProblem {
	b.Helper()
	epProblemsMu.Lock()
	defer epProblemsMu.Unlock()
	if p := epProblems[m]; p != nil {
		return p
	}
	g := RandGeneral(m, epBenchD, 11)
	x := mat.NewDense(m, epBenchD, g.Data)
	y := make([]float64, m)
	for i := range y {
		r := x.RawRowView(i)
		s := math.Sin(3*r[0]) + r[1] - 0.5*r[2]*r[3]
		y[i] = 1
		if s < 0 {
			y[i] = -1
		}
	}
	// Squared distances are about 2·d/3 for uniform [-1,1) inputs.
	k := kernel.SE{Var: 4, Len2: epBenchD / 3.0, Jitter: 1e-4}
	post, err := ep.Infer(k, x, y, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	p := &epProblem{k: k, x: x, y: y, sites: post.Sites.Clone()}
	epProblems[m] = p
	return p
}

// BenchmarkEPSweep times one EP sweep from a converged (warm) state.
// Parallel: FLOPs m³/3 (Cholesky of B) + m³/3 (L⁻¹, which gives the
// posterior variances through diag B⁻¹) + m² per weak site (τ̃_i K_ii below
// ep's weakSite = 0.1, whose variance comes from its column of
// V = L⁻¹ S^½ K; reported as weak_sites). Sequential: m rank-one updates of
// Σ (m³, via DSYR on one triangle, memory-bound) plus the refresh after
// the sweep, m³/3 (Cholesky) + m³ (V) + m³ (Σ = K - VᵀV, DSYRK), 10m³/3 in
// all.
func BenchmarkEPSweep(b *testing.B) {
	for _, s := range []ep.Schedule{ep.Sequential, ep.Parallel} {
		for _, m := range []int{1000, 2000} {
			b.Run(s.String()+"/m="+itoa(m), func(b *testing.B) {
				p := getEPProblem(b, m)
				it, err := ep.NewIteration(p.k, p.x, p.y, &p.sites, &ep.Options{Schedule: s})
				if err != nil {
					b.Fatal(err)
				}
				defer it.Close()
				DGEMMRate()
				b.ResetTimer()
				for b.Loop() {
					if _, err := it.Sweep(); err != nil {
						b.Fatal(err)
					}
				}
				fm := float64(m)
				var weak float64
				se := p.k.(kernel.SE)
				for _, t := range p.sites.Tau {
					if !(t*(se.Var+se.Jitter) >= 0.1) {
						weak++
					}
				}
				flops := 2*fm*fm*fm/3 + weak*fm*fm
				if s == ep.Sequential {
					flops = 10 * fm * fm * fm / 3
				} else {
					b.ReportMetric(weak, "weak_sites")
				}
				ReportFLOPs(b, flops)
			})
		}
	}
}

// BenchmarkPredict times batched predictions (paper eq. 4: mean, variance
// and probability) of n test points against m active points: FLOPs
// 2·n·m·d (Gram block) + n·m² (triangular solve with n right-hand sides)
// + 2·n·m (means).
func BenchmarkPredict(b *testing.B) {
	for _, sz := range [][2]int{{2000, 1000}} {
		m, n := sz[0], sz[1]
		b.Run("m="+itoa(m)+"/n="+itoa(n), func(b *testing.B) {
			p := getEPProblem(b, m)
			post, err := ep.FromSites(p.k, p.x, p.y, p.sites)
			if err != nil {
				b.Fatal(err)
			}
			xs := mat.NewDense(n, epBenchD, RandGeneral(n, epBenchD, 12).Data)
			mean, vr, prob := make([]float64, n), make([]float64, n), make([]float64, n)
			DGEMMRate()
			b.ResetTimer()
			for b.Loop() {
				post.PredictTo(mean, vr, prob, xs)
			}
			fm, fn := float64(m), float64(n)
			ReportFLOPs(b, 2*fn*fm*epBenchD+fn*fm*fm+2*fn*fm)
		})
	}
}

// BenchmarkLeaveOut times ep.Posterior.LeaveOutTo as the invariance
// stage's held-out latents use it (passgp.groupHeldOut): chunks of 64
// training points, each left out together with 8 near copies (groups of
// 9 active points). FLOPs: the triangular solve with 64·(1+9) right-hand
// sides (m² each), the cross-covariance (2·64·m·d) and the groups' 9×9
// Gram matrices of the solved rows (64·45·2m).
func BenchmarkLeaveOut(b *testing.B) {
	for _, m := range []int{2000} {
		b.Run("m="+itoa(m)+"/groups=64x9", func(b *testing.B) {
			p := getEPProblem(b, m)
			post, err := ep.FromSites(p.k, p.x, p.y, p.sites)
			if err != nil {
				b.Fatal(err)
			}
			const q, g = 64, 9
			xs := mat.NewDense(q, epBenchD, nil)
			self := make([]int, q)
			groups := make([][]int, q)
			for k := range q {
				self[k] = k * g
				xs.SetRow(k, p.x.RawRowView(k*g))
				for j := range g {
					groups[k] = append(groups[k], k*g+j)
				}
			}
			mean, vr := make([]float64, q), make([]float64, q)
			DGEMMRate()
			b.ResetTimer()
			for b.Loop() {
				if err := post.LeaveOutTo(mean, vr, xs, self, groups); err != nil {
					b.Fatal(err)
				}
			}
			fm := float64(m)
			ReportFLOPs(b, q*(1+g)*fm*fm+2*q*fm*epBenchD+q*45*2*fm)
		})
	}
}

// BenchmarkPredictJoint times ep.Posterior.PredictJointBlocksTo as the
// held-out estimate's neighbourhoods use it (passgp.reselected): 255
// points in 51 blocks of 5 (an active point and its 4 neighbours) against
// m active points. FLOPs: the triangular solve with 255 right-hand sides
// (255·m²), the blocks' covariances (2·255·5·m) and the means (2·255·m).
func BenchmarkPredictJoint(b *testing.B) {
	for _, m := range []int{2000} {
		b.Run("m="+itoa(m)+"/n=255", func(b *testing.B) {
			p := getEPProblem(b, m)
			post, err := ep.FromSites(p.k, p.x, p.y, p.sites)
			if err != nil {
				b.Fatal(err)
			}
			const n, t = 255, 5
			xs := mat.NewDense(n, epBenchD, RandGeneral(n, epBenchD, 13).Data)
			ks := mat.NewDense(n, m, nil)
			p.k.CrossTo(ks, xs, p.x)
			var kss, covs []*mat.Dense
			for lo := 0; lo < n; lo += t {
				xb := xs.Slice(lo, lo+t, 0, epBenchD).(*mat.Dense)
				k := mat.NewDense(t, t, nil)
				p.k.CrossTo(k, xb, xb)
				kss, covs = append(kss, k), append(covs, mat.NewDense(t, t, nil))
			}
			mean := make([]float64, n)
			DGEMMRate()
			b.ResetTimer()
			for b.Loop() {
				post.PredictJointBlocksTo(mean, covs, ks, kss)
			}
			fm := float64(m)
			ReportFLOPs(b, n*fm*fm+2*n*t*fm+2*n*fm)
		})
	}
}

// BenchmarkEPInfer times a full EP run from zero sites at the default
// stopping rule, and reports the sweeps and the error of log Z_EP against
// a tightly converged reference: the comparison "at equal accuracy" behind
// the choice of the default schedule.
func BenchmarkEPInfer(b *testing.B) {
	for _, m := range []int{1000, 2000} {
		p := getEPProblem(b, m)
		ref, err := ep.Infer(p.k, p.x, p.y, &p.sites, &ep.Options{Tol: 1e-10, SiteTol: 1e-9, MaxSweeps: 1000})
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name string
			o    ep.Options
		}{
			{"sequential", ep.Options{Schedule: ep.Sequential}},
			{"parallel", ep.Options{Schedule: ep.Parallel}},
			{"parallel-tol1e-5", ep.Options{Schedule: ep.Parallel, Tol: 1e-5}},
			{"parallel-tol1e-6", ep.Options{Schedule: ep.Parallel, Tol: 1e-6}},
		} {
			b.Run(c.name+"/m="+itoa(m), func(b *testing.B) {
				var post *ep.Posterior
				for b.Loop() {
					post, err = ep.Infer(p.k, p.x, p.y, nil, &c.o)
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(post.Sweeps), "sweeps")
				b.ReportMetric(math.Abs(post.LogZ-ref.LogZ), "logz_err")
				var dmax float64
				for i, v := range post.Mean {
					dmax = math.Max(dmax, math.Abs(v-ref.Mean[i]))
				}
				b.ReportMetric(dmax, "mean_err")
			})
		}
	}
}

// BenchmarkFITC times ep.InferFITC from zero sites on n points with m
// inducing inputs (the first m of them) at the default stopping rule, the
// FITC pass of passgp.TrainFITC. FLOPs per sweep: n·m² for P (DSYRK,
// half of 2n·m²) and 2n·m·m/2·2 = n·m² for the solve L_P⁻¹U, so about
// 2n·m² per sweep; the setup adds 2n·m·d for K_NM and n·m² for U.
func BenchmarkFITC(b *testing.B) { benchFITC(b, false) }

// BenchmarkFITCGrad is BenchmarkFITC with the evidence gradient
// (ep.InferFITCGrad, each L-BFGS evaluation of the FITC pass's θ search): the
// gradient adds about 5nm² (one pass over U: U P⁻¹ and Uᵀ diag(e) U by
// DGEMM, a DTRMM with L⁻¹) + 2nmd per kernel contraction (two beyond one
// block of rows) + 3m³ (P⁻¹, L⁻¹ and C_MM).
func BenchmarkFITCGrad(b *testing.B) { benchFITC(b, true) }

func benchFITC(b *testing.B, grad bool) {
	for _, c := range []struct{ n, m int }{{10000, 100}, {10000, 500}, {50000, 500}} {
		b.Run("n="+itoa(c.n)+"/m="+itoa(c.m), func(b *testing.B) {
			x, y, xm, k := fitcBenchData(c.n, c.m)
			DGEMMRate()
			var sweeps int
			b.ResetTimer()
			for b.Loop() {
				var f *ep.FITC
				var err error
				if grad {
					f, _, err = ep.InferFITCGrad(context.Background(), k, x, y, xm, nil, nil)
				} else {
					f, err = ep.InferFITC(context.Background(), k, x, y, xm, nil, nil)
				}
				if err != nil {
					b.Fatal(err)
				}
				sweeps = f.Sweeps
			}
			n, m, d := float64(c.n), float64(c.m), float64(epBenchD)
			flops := float64(sweeps)*2*n*m*m + 2*n*m*d + n*m*m
			if grad {
				flops += 5*n*m*m + 4*n*m*d + 3*m*m*m
			}
			ReportFLOPs(b, flops)
			b.ReportMetric(float64(sweeps), "sweeps")
		})
	}
}

// fitcBenchData returns n seeded inputs with a nonlinear boundary, their
// labels, the first m rows as inducing inputs and an SE kernel.
func fitcBenchData(n, m int) (x *mat.Dense, y []float64, xm *mat.Dense, k kernel.Kernel) {
	g := RandGeneral(n, epBenchD, 13)
	x = mat.NewDense(n, epBenchD, g.Data)
	y = make([]float64, n)
	for i := range y {
		r := x.RawRowView(i)
		y[i] = 1
		if math.Sin(3*r[0])+r[1]-0.5*r[2]*r[3] < 0 {
			y[i] = -1
		}
	}
	xm = mat.DenseCopyOf(x.Slice(0, m, 0, epBenchD))
	return x, y, xm, kernel.SE{Var: 4, Len2: epBenchD / 3.0, Jitter: 1e-4}
}
