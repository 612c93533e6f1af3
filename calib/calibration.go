package calib

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Calibration maps the latents z_k = m_k/√(1+v_k) of K one-against-the-
// rest classifiers (q(y=+1|x) = Φ(z_k), paper eq. 4), and the shares
// ρ_k = v_k/k_k(x, x) of their prior variances that remain at x, to class
// probabilities:
//
//	u_k = A·z_k + (1 − ρ_k)·B[k] + ρ_k·L_k
//	K = 1 (binary):  s(+1|x) = σ(u_1)                   (Platt scaling)
//	K >= 2:          s(k|x) ∝ exp(u_k)                  (multinomial logistic)
//
//	p(k|x) = (1 − Eps)·s(k|x) + Eps/C,  C = max(K, 2) classes,
//	K = 1:   p(+1|x) = (1 − Eps)·s(+1|x) + Eps·Kappa,
//
// with A > 0, so that each class's probability increases with its own
// latent. Eps is the share of labels that no latent explains, as label
// noise gives: a logistic map alone goes to 0 and 1 in the tails, while
// with a fraction ε of flipped labels the true probabilities stay within
// [ε, 1 − ε], so Platt scaling is over-confident there and, to fit the
// tails, too flat in between (docs/method.md). The uniform mixture leaves
// the decision unchanged (it is monotone in s). For K = 1 the unexplained
// labels need not be half positive: Kappa is their positive share, so the
// probabilities stay within [ε·κ, 1 − ε·(1 − κ)], and the decision is
// p(+1|x) > 1/2, which for κ ≠ 1/2 is u_1 above a threshold other than 0
// (or never, or always). A binary classifier whose latent stops ranking
// the points in its upper tail (the held-out labels there mostly
// negative) can then get a ceiling below 1/2 rather than a sigmoid that
// calls that tail positive. It is fitted by Fit on held-out
// latents of the training points (passgp.Result.HeldOut), never on test data. The raw
// one-against-the-rest probabilities Φ(z_k) are under-confident away from
// the active set and, normalised over K classes, give too little mass to
// the right class (docs/method.md); the fitted map corrects both.
//
// Balance holds the training labels' class shares π (K = 1: the share of
// positives; K >= 2: one per class, summing to one), and L_k is the logit
// at which p = π: L_k = log((π_k − ε/C)/(1 − ε)) (K = 1: logit((π −
// ε·κ)/(1 − ε))). Where
// a point is far from every active point, its posterior is the prior
// (ρ = 1) and the latent says nothing, so the probability falls back to
// the class balance instead of to whatever the fit made of latent 0 near
// the boundary (docs/method.md). With Balance nil
// (models before format version 6) or ρ = 0 the map is A·z_k + B[k].
type Calibration struct {
	A       float64
	B       []float64
	Eps     float64   // in [0, 1); 0 in model files before format version 4
	Balance []float64 // nil in model files before format version 6
	// Kappa is, for K = 1, the positive share of the labels that the
	// latent does not explain (Eps), in (0, 1); 0 means 1/2, as in model
	// files before format version 8. It is 0 for K >= 2, whose share is
	// Eps/C for every class.
	Kappa float64
	// GateNear and GateFar are the largest correlations with the active
	// set (model.Model.LatentShareNearTo) at and above which a point keeps its latent and
	// share, and at and below which it gets the prior's, z = 0 and ρ = 1
	// (Gate): far from the data the probabilities are then Balance,
	// whatever the kernel's constant makes of the latent there. Fit
	// leaves both 0, which moves no point, as a calibration without
	// Balance does not; model files of format version 9 and later that
	// carry a gate (10⁻⁴ and 10⁻⁸) apply it at prediction.
	GateNear, GateFar float64
	// Slopes, for K >= 2, are per-class slopes that replace A in u_k
	// (nil: A for every class, as in model files before format version
	// 10).
	Slopes []float64
}

// kappa returns Kappa, 1/2 when it is 0.
func (c *Calibration) kappa() float64 {
	if c.Kappa == 0 {
		return 0.5
	}
	return c.Kappa
}

// balanceFloor bounds the far-field probabilities of Calibration.Balance
// away from 0 and 1, where the logits would be infinite (a class rarer
// than ε/C).
const balanceFloor = 1e-6

// Classes returns K, the number of latents the calibration takes.
func (c *Calibration) Classes() int { return len(c.B) }

// farLogits returns L (Calibration) for the label-noise share eps and,
// for K = 1, its positive share kappa, and dL/dε in dl and (K = 1)
// dL/dκ in dk (when not nil); nil when c has no Balance.
func (c *Calibration) farLogits(eps, kappa float64, dl, dk []float64) []float64 {
	if c.Balance == nil {
		return nil
	}
	k := len(c.B)
	l := make([]float64, k)
	if k == 1 {
		// (1 − ε)σ(L) + εκ = π.
		s := (c.Balance[0] - eps*kappa) / (1 - eps)
		clamped := s < balanceFloor || s > 1-balanceFloor
		s = min(max(s, balanceFloor), 1-balanceFloor)
		l[0] = logit(s)
		if dl != nil {
			dl[0], dk[0] = 0, 0
			if !clamped {
				dl[0] = (c.Balance[0] - kappa) / ((1 - eps) * (1 - eps) * s * (1 - s))
				dk[0] = -eps / ((1 - eps) * s * (1 - s))
			}
		}
		return l
	}
	nc := float64(k)
	for j, pi := range c.Balance {
		s := (pi - eps/nc) / (1 - eps)
		if dl != nil {
			dl[j] = 0
		}
		if s < balanceFloor {
			l[j] = math.Log(balanceFloor)
			continue
		}
		l[j] = math.Log(s)
		if dl != nil {
			dl[j] = -1/(nc*(pi-eps/nc)) + 1/(1-eps)
		}
	}
	return l
}

// logitsTo sets u to the logits u_k of one row of latents z and shares
// rho (nil: 0) for the far-field logits far (nil: no Balance).
func (c *Calibration) logitsTo(u, z, rho, far []float64) {
	for j, v := range z {
		a := c.A
		if c.Slopes != nil {
			a = c.Slopes[j]
		}
		u[j] = a*v + c.B[j]
		if far != nil && rho != nil {
			u[j] += rho[j] * (far[j] - c.B[j])
		}
	}
}

// ProbTo sets row i of dst to the calibrated probabilities of row i of z
// (n×K) and of the prior-variance shares rho (n×K, each in [0, 1]; nil:
// all 0, the map near the active points). For K = 1, dst is n×2:
// [p(−1|x), p(+1|x)], both computed directly (neither as one minus the
// other). Rows sum to one.
func (c *Calibration) ProbTo(dst, z, rho *mat.Dense) {
	n, k := z.Dims()
	if k != len(c.B) {
		panic("calib: Calibration.ProbTo: z has the wrong number of columns")
	}
	if rho != nil {
		if rn, rk := rho.Dims(); rn != n || rk != k {
			panic("calib: Calibration.ProbTo: rho and z differ in shape")
		}
	}
	want := max(k, 2)
	if r, cc := dst.Dims(); r != n || cc != want {
		panic("calib: Calibration.ProbTo: destination has the wrong shape")
	}
	far := c.farLogits(c.Eps, c.kappa(), nil, nil)
	u := make([]float64, k)
	for i := 0; i < n; i++ {
		zr, out := z.RawRowView(i), dst.RawRowView(i)
		c.logitsTo(u, zr, rowOrNil(rho, i), far)
		if k == 1 {
			out[0], out[1] = sigmoid(-u[0]), sigmoid(u[0])
			if c.Eps > 0 {
				kp := c.kappa()
				out[0] = (1-c.Eps)*out[0] + c.Eps*(1-kp)
				out[1] = (1-c.Eps)*out[1] + c.Eps*kp
			}
			continue
		}
		lse := floats.LogSumExp(u)
		for j := range out {
			out[j] = math.Exp(u[j] - lse)
		}
		if c.Eps > 0 {
			for j := range out {
				out[j] = (1-c.Eps)*out[j] + c.Eps/float64(want)
			}
		}
	}
}

// rowOrNil returns row i of m, or nil when m is nil.
func rowOrNil(m *mat.Dense, i int) []float64 {
	if m == nil {
		return nil
	}
	return m.RawRowView(i)
}

// Decide returns the class of largest calibrated probability for one row
