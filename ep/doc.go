// Package ep implements expectation propagation (EP) for binary Gaussian
// process classification with the probit likelihood Φ(y f) (SPEC.md §2,
// Rasmussen & Williams ch. 3.6, GPML infEP with likErf), the EP evidence
// log Z_EP with its gradient with respect to log θ, the cavity and
// predictive probabilities of the PASS-GP paper (eqs. 3 and 4), and
// hyperparameter optimisation (Optimize).
//
// Two schedules are provided. Sequential is GPML's: sites are visited in a
// random order and each update is followed by a rank-one update of Σ; here
// the rank-one updates are delayed and applied 64 at a time by DSYRK, which
// gives the same result to rounding at BLAS-3 speed. After every sweep the
// posterior is recomputed from a fresh Cholesky factor of
// B = I + S^½ K S^½ (10n³/3 FLOPs per sweep in all). Parallel updates every
// site from the current marginals with a damped step (0.9 at the start,
// shrinking when log Z oscillates) and then recomputes the posterior with
// one Cholesky factorisation and the inverse of its factor, whose column
// norms give diag B⁻¹ and so the posterior variances
// Σ_ii = (1 - (B⁻¹)_ii)/τ̃_i (2n³/3 FLOPs; sites too weak for that
// formula's rounding take theirs from a triangular solve, n² each). Both
// converge to the same fixed point; the stopping rule is
// |Δ log Z_EP| <= Options.Tol between sweeps (Tol/10 for the parallel
// schedule, whose damped steps move log Z less per sweep; and optionally a
// relative site change below Options.SiteTol), with a sweep
// cap that returns a *NotConvergedError.
//
// Parallel is the default schedule: at equal or better accuracy of the
// posterior it was 2.5× faster than Sequential at n = 1000 and 1.4× at
// n = 2000 on the project machine, and its sweep runs at 50-70% of the
// DGEMM rate (docs/performance.md, "EP and prediction"). At extreme
// hyperparameters (signal variance 1e6 on USPS) it needs about three times
// as many sweeps as Sequential, which may then be the better choice.
//
// InferFITC runs parallel EP on all N training points under the FITC
// prior (Snelson & Ghahramani 2006; Naish-Guzman & Holden 2008) with M
// inducing inputs, at O(N M²) per sweep: the sparse pass that lets
// the points outside an active set shape the posterior (docs/method.md).
// InferFITCGrad also returns the gradient of that model's log Z_EP in
// log θ, at the same cost order.
//
// Numerical workspaces of the order n² come from pools (a run's work and
// la.GetScratch's slices: the prior covariance, GradientTo's W, the
// factors of the posteriors a θ search discards, InferFITC's U and
// blocks), so repeated Infer calls at similar sizes (hyperparameter
// optimisation, PASS-GP batches) reuse their memory.
//
// Optimize maximises log Z_EP over log θ with L-BFGS (a small
// implementation in this package: gonum/optimize would pull in
// golang.org/x/tools, which is not a dependency of this module), warm-starting
// EP from the previous evaluation's sites. θ is kept in
// [DefaultLower, DefaultUpper] = [1e-8, 1e6] unless OptimizeOptions gives
// bounds. On training sets where log Z_EP keeps rising with the signal
// variance (fixtures/gpml se_usps_n300 and poly9_mnist_n200) the search
// stops at the upper bound or at MaxEvals; at t1 = 1e6 log Z is within
// 2e-4 of its supremum there, and within 30 evaluations the optimiser gets
// within 2e-3 of it. Status says why the search stopped and names the
// components at a bound, e.g. "gradient below tolerance; stopped at a
// bound: t1 at its upper bound 1e+06 (log Z_EP still increases beyond it)".
//
// Site precisions stay non-negative for the probit likelihood, so B is
// symmetric positive definite whenever K is positive semi-definite; a
// failed factorisation (K not PSD through rounding) is reported as an error
// after the parallel step has been halved repeatedly.
package ep
