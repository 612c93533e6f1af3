// Package kernel provides the covariance functions of passgp-fast
// (SPEC.md section 1, paper eq. (rbf) and Section 6):
//
//	SE:     k(x,x') = t1 exp(-|x-x'|²/(2 t2)) + t3 δ(x,x')
//	SE+lin: SE + t4 x·x'
//	SE+bias: SE + t4 (a constant: the variance of a shared offset)
//	SEARD:  k(x,x') = t1 exp(-½ Σ_k (x_k-x'_k)²/t2_k) + t3 δ(x,x')  (one t2_k per feature)
//	SEARD+bias: SEARD + t4
//	poly:   k(x,x') = t1 (g x·x' + 1)^p + t3 δ(x,x')
//
// δ is one only for the same training point: the training covariance
// (TrainTo) carries the jitter t3 on its diagonal, cross-covariances
// (CrossTo) and test diagonals (DiagTo) never do. Hyperparameters θ are
// positive and are optimised in log space; GradTo and GradTraceTo give
// derivatives with respect to log θ_j, and CrossGradTraceTo and
// DiagGradTraceTo their contractions for cross-covariances and training
// diagonals (the FITC evidence gradient). The Gram blocks are computed by the
// SIMD kernels of package la.
package kernel
