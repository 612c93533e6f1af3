// Package calib is the calibration stage of passgp-fast: the map from a
// Gaussian process classifier's held-out latents to class probabilities,
// and the scores it is judged by (docs/method.md, Section 5).
//
// The classifiers of package passgp give, for every training point, a
// latent z_k = m_k/√(1+v_k) from a predictive distribution that did not
// see its label and the share ρ_k of the prior variance left there. Fit
// maps them to probabilities by maximum likelihood on those held-out
// latents only: Platt scaling for one latent (J. Platt, "Probabilistic
// outputs for support vector machines", 1999, which fits on
// cross-validation outputs) and a multinomial logistic map with a slope
// per class for K >= 2 (the vector scaling of C. Guo, G. Pleiss, Y. Sun,
// K. Q. Weinberger, "On calibration of modern neural networks", ICML
// 2017). A mixture with a share ε of labels that no latent explains
// models label noise, and the ρ term makes a point the posterior knows
// nothing about get the training labels' class balance (Calibration).
// CrossFit estimates test performance from training data alone: each of
// five stratified folds is scored through a map fitted on the others.
//
// The metrics (ErrorRate, Brier, MeanNLP, ECE, ...) take probabilities;
// those that take latents through Φ stay in passgp. The package imports
// nothing of this module but la (for the thread budget).
package calib
