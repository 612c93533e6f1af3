package asm

import (
	"math"
	"math/rand/v2"
	"testing"
)

const eps = 0x1p-52

// eachPath runs f once per SIMD path this CPU supports.
func eachPath(t *testing.T, f func(t *testing.T)) {
	for _, p := range Supported() {
		t.Run(p.String(), func(t *testing.T) {
			old := SetPath(p)
			defer SetPath(old)
			f(t)
		})
	}
}

// expTol is the accepted error of amp·exp(x): 4 ulp relative, plus the
// smallest normal times amp, since the AVX2 and NEON paths flush results
// below it to 0.
func expTol(ref, amp float64) float64 {
	return 4*eps*math.Abs(ref) + 0x1p-1022*math.Abs(amp)
}

func TestExpMapAccuracy(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), -1e-300, -1e-17, -0.5 * math.Ln2, 0.5 * math.Ln2,
		-1, -700, -708, -708.39, -708.4, -709, -744, -745.13, -745.2, -746, -800, -1e300,
		math.Inf(-1), 1, 1e300, math.Inf(1)}
	rng := rand.New(rand.NewPCG(1, 2))
	eachPath(t, func(t *testing.T) {
		for _, n := range []int{1, 3, 7, 8, 17, 63, 65, 129, 1000} {
			x := make([]float64, n)
			for i := range x {
				switch i % 4 {
				case 0:
					x[i] = -760 * rng.Float64()
				case 1:
					x[i] = -2 * rng.Float64()
				case 2:
					x[i] = -1e-6 * rng.Float64()
				default:
					x[i] = special[rng.IntN(len(special))]
				}
			}
			for _, amp := range []float64{1, 2.5} {
				dst := append([]float64(nil), x...)
				ExpMap(dst, make([]float64, n), 0, 1, amp)
				for i, v := range x {
					ref := amp * math.Exp(min(v, 0))
					if math.IsNaN(dst[i]) || math.Abs(dst[i]-ref) > expTol(ref, amp) {
						t.Errorf("n=%d amp=%g: exp(%v) = %v, want %v (err %.3g ulp)", n, amp, v, dst[i], ref,
							math.Abs(dst[i]-ref)/(eps*ref))
					}
				}
			}
		}
	})
}

func TestExpMapULPSweep(t *testing.T) {
	// Dense sweep over the range that matters for SE kernels; reports the
	// maximum error in ulp of the result.
	eachPath(t, func(t *testing.T) {
		const n = 1 << 16
		x := make([]float64, n)
		for i := range x {
			x[i] = -708 * float64(i) / n
		}
		dst := append([]float64(nil), x...)
		ExpMap(dst, make([]float64, n), 0, 1, 1)
		var worst float64
		for i, v := range x {
			ref := math.Exp(v)
			ulp := math.Nextafter(ref, math.Inf(1)) - ref
			worst = max(worst, math.Abs(dst[i]-ref)/ulp)
		}
		t.Logf("max error %.2f ulp over [-708, 0]", worst)
		if worst > 4 {
			t.Errorf("max error %.2f ulp > 4", worst)
		}
	})
}

func TestExpMapNaN(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		for _, n := range []int{1, 4, 8, 9, 16} {
			dst := make([]float64, n)
			for i := range dst {
				dst[i] = -1
			}
			dst[n-1] = math.NaN()
			ExpMap(dst, make([]float64, n), 0, 1, 1)
			if !math.IsNaN(dst[n-1]) {
				t.Errorf("n=%d: exp(NaN) = %v", n, dst[n-1])
			}
			for i := 0; i < n-1; i++ {
				if dst[i] != math.Exp(-1) && math.Abs(dst[i]-math.Exp(-1)) > 4*eps {
					t.Errorf("n=%d: exp(-1) = %v", n, dst[i])
				}
			}
		}
	})
}

// TestExpMapFused checks the add/clamp stage: x = alpha·v + nb + s is
// formed with an FMA in assembly, so the tolerance adds the rounding of x,
// 2ε(|alpha·v| + |nb| + |s|), times the result.
func TestExpMapFused(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	eachPath(t, func(t *testing.T) {
		for _, n := range []int{1, 3, 7, 17, 63, 65, 129} {
			v, nb := make([]float64, n), make([]float64, n+5)
			for i := range v {
				v[i] = 40 * rng.Float64()
			}
			for i := range nb {
				nb[i] = -40 * rng.Float64()
			}
			s, alpha, amp := -7*rng.Float64(), 1.5, 3.0
			dst := append([]float64(nil), v...)
			ExpMap(dst, nb, s, alpha, amp)
			for i := range v {
				x := min(alpha*v[i]+nb[i]+s, 0)
				ref := amp * math.Exp(x)
				tol := expTol(ref, amp) + ref*2*eps*(math.Abs(alpha*v[i])+math.Abs(nb[i])+math.Abs(s))
				if math.Abs(dst[i]-ref) > tol {
					t.Errorf("n=%d i=%d: got %v, want %v", n, i, dst[i], ref)
				}
			}
		}
	})
}

func TestSqdMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	eachPath(t, func(t *testing.T) {
		for _, n := range []int{1, 3, 7, 17, 63, 65, 129} {
			v, nb := make([]float64, n), make([]float64, n)
			for i := range v {
				v[i] = rng.Float64() - 0.5
				nb[i] = rng.Float64()
			}
			v[0] = math.NaN()
			s, alpha := 0.25, -2.0
			dst := append([]float64(nil), v...)
			SqdMap(dst, nb, s, alpha)
			if !math.IsNaN(dst[0]) {
				t.Errorf("n=%d: NaN lost: %v", n, dst[0])
			}
			for i := 1; i < n; i++ {
				ref := max(alpha*v[i]+nb[i]+s, 0)
				if dst[i] < 0 || math.Abs(dst[i]-ref) > 2*eps*(math.Abs(alpha*v[i])+nb[i]+s) {
					t.Errorf("n=%d i=%d: got %v, want %v", n, i, dst[i], ref)
				}
			}
		}
	})
}

func TestPowMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	eachPath(t, func(t *testing.T) {
		for _, p := range []int{0, 1, 2, 3, 9, 10} {
			for _, n := range []int{1, 3, 7, 17, 63, 65, 129} {
				v := make([]float64, n)
				for i := range v {
					v[i] = 4*rng.Float64() - 2
				}
				g, off, amp := 0.7, 1.0, 1.5
				dst := append([]float64(nil), v...)
				PowMap(dst, g, off, amp, p)
				for i := range v {
					y := g*v[i] + off
					ref := amp * powi(y, p)
					// y is rounded differently (FMA): relative error
					// 2ε(|g v| + |off|)/|y| in y, times p in the power,
					// plus 2p rounding errors of the products.
					rel := float64(p)*2*eps*(math.Abs(g*v[i])+off)/math.Abs(y) + 2*float64(p+1)*eps
					if math.Abs(dst[i]-ref) > rel*math.Abs(ref)+1e-300 {
						t.Errorf("p=%d n=%d i=%d: got %v, want %v", p, n, i, dst[i], ref)
					}
				}
			}
		}
	})
}

func TestTiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	eachPath(t, func(t *testing.T) {
		w := TileWidth()
		for _, d := range []int{1, 2, 3, 22, 33} {
			for _, lda := range []int{0, d, d + 3} {
				a := make([]float64, 3*lda+d)
				bp := make([]float64, d*w)
				for i := range a {
					a[i] = rng.Float64()*2 - 1
				}
				for i := range bp {
					bp[i] = rng.Float64()*2 - 1
				}
				ldd := w + 1
				for _, k := range []struct {
					name      string
					asm, gen  func(dst []float64)
					magnitude float64 // scale of the rounding error
				}{
					{"sqd", func(dst []float64) { SqdTile(dst, ldd, a, lda, bp, d) },
						func(dst []float64) { sqdTileGo(dst, ldd, a, lda, bp, d, w) }, 0},
					{"dot", func(dst []float64) { DotTile(dst, ldd, a, lda, bp, d) },
						func(dst []float64) { dotTileGo(dst, ldd, a, lda, bp, d, w) }, float64(d)},
				} {
					got := make([]float64, 3*ldd+w)
					want := make([]float64, 3*ldd+w)
					for i := range got {
						got[i], want[i] = -1, -1
					}
					k.asm(got)
					k.gen(want)
					for i := range got {
						// Same summation order; FMA versus separate
						// rounding: 2dε relative to the sum (distances) or
						// to Σ|a||b| <= d (inner products of values in [-1, 1]).
						tol := 2 * float64(d) * eps * max(math.Abs(want[i]), k.magnitude)
						if math.Abs(got[i]-want[i]) > tol {
							t.Errorf("%s d=%d lda=%d: element %d = %v, want %v", k.name, d, lda, i, got[i], want[i])
						}
					}
				}
			}
		}
	})
}

func benchPaths(b *testing.B, f func(b *testing.B)) {
	for _, p := range Supported() {
		b.Run(p.String(), func(b *testing.B) {
			old := SetPath(p)
			defer SetPath(old)
			f(b)
		})
	}
}

// reportCPU reports the CPU time per unit of work (per op / units).
func reportCPU(b *testing.B, cpu float64, units int, name string) {
	if cpu > 0 && b.N > 0 {
		b.ReportMetric(cpu*1e9/float64(b.N)/float64(units), name)
	}
}

// BenchmarkExpMap times the fused exp pass over one row of 2000 values.
func BenchmarkExpMap(b *testing.B) {
	const n = 2000
	x, nb := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = -float64(i%97) / 3
	}
	dst := make([]float64, n)
	benchPaths(b, func(b *testing.B) {
		c := cpuSeconds()
		for b.Loop() {
			copy(dst, x)
			ExpMap(dst, nb, 0, 1, 1)
		}
		reportCPU(b, cpuSeconds()-c, n, "cpu-ns/value")
	})
}

// BenchmarkSqdTile times one 4×TileWidth() tile with d = 22; the unit is
// one (a_ik - b_jk)² accumulation.
func BenchmarkSqdTile(b *testing.B) {
	const d = 22
	a := make([]float64, 4*d)
	dst := make([]float64, 4*16)
	benchPaths(b, func(b *testing.B) {
		w := TileWidth()
		bp := make([]float64, d*w)
		c := cpuSeconds()
		for b.Loop() {
			SqdTile(dst, w, a, d, bp, d)
		}
		reportCPU(b, cpuSeconds()-c, 4*w*d, "cpu-ns/pair-dim")
	})
}

// TestMapsPositionIndependent: an element's result does not depend on where
// it sits in the slice (vector body or padded tail), which makes a fully
// computed K(X,X) exactly symmetric.
func TestMapsPositionIndependent(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		for _, n := range []int{1, 2, 3, 5, 8, 9, 15, 17} {
			for _, v := range []float64{-0.3, 2.7, -1e-3} {
				e, q, p := make([]float64, n), make([]float64, n), make([]float64, n)
				nb := make([]float64, n)
				for i := range e {
					e[i], q[i], p[i], nb[i] = v, v, v, 0.25
				}
				ExpMap(e, nb, 0.1, -1.5, 2)
				SqdMap(q, nb, 0.1, -1.5)
				PowMap(p, 0.5, 1, 2, 9)
				for i := 1; i < n; i++ {
					if e[i] != e[0] || q[i] != q[0] || p[i] != p[0] {
						t.Fatalf("n=%d v=%v: element %d differs from element 0", n, v, i)
					}
				}
			}
		}
	})
}

// TestMapsNoAlloc checks that the maps' padded tails stay on the stack:
// the Gram kernels call them once per row.
func TestMapsNoAlloc(t *testing.T) {
	dst, nb := make([]float64, 11), make([]float64, 11)
	if a := testing.AllocsPerRun(20, func() {
		ExpMap(dst, nb, 0, -1, 1)
		SqdMap(dst, nb, 0, 1)
		PowMap(dst, 1, 0, 1, 3)
	}); a != 0 {
		t.Errorf("%v allocations per call of the three maps on 11 values", a)
	}
}
