// Package ep implements expectation propagation (EP) for binary Gaussian
// process classification with the probit likelihood Φ(y f) (SPEC.md §2,
// Rasmussen & Williams ch. 3.6, GPML infEP with likErf), the EP evidence
// log Z_EP with its gradient with respect to log θ, the cavity and
// predictive probabilities of the PASS-GP paper (eqs. 3 and 4), and
// hyperparameter optimisation (Optimize).
//
// Two schedules are provided. Sequential is GPML's: sites are visited in a
// random order, each update is followed by a rank-one update of Σ
// (O(n²) memory traffic per site, memory-bound), and the posterior is
// recomputed from a fresh Cholesky factor of B = I + S^½ K S^½ after every
// sweep. Parallel updates every site from the current marginals with a
// damped step and then recomputes the posterior with one Cholesky
// factorisation and one triangular solve with n right-hand sides (BLAS-3).
// Both converge to the same fixed point; the stopping rule is
// |Δ log Z_EP| <= Options.Tol between sweeps (and optionally a relative site
// change below Options.SiteTol), with a sweep cap that returns a
// *NotConvergedError.
//
// Parallel is the default schedule: on the project machine a parallel
// sweep at n = 2000 runs at a large fraction of the DGEMM rate, while a
// sequential sweep is bound by memory bandwidth and is several times
// slower (docs/performance.md, section "EP and prediction").
//
// Site precisions stay non-negative for the probit likelihood, so B is
// symmetric positive definite whenever K is positive semi-definite; a
// failed factorisation (K not PSD through rounding) is reported as an error
// after the parallel step has been halved repeatedly.
package ep
