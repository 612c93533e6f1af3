// Package passgp implements predictive active set selection for Gaussian
// process classification (Henao & Winther, "Predictive Active Set Selection
// Methods for Gaussian Processes"; SPEC.md sections 3-5): PASS-GP and
// fPASS-GP (paper Algorithm 1), the baselines IVM (Lawrence, Seeger &
// Herbrich 2003), a random active set and the full GPC, all run by the same
// code on the EP core of package ep; one-against-the-rest multi-class
// training; representer weights (Section 4); and invariances by
// one-pixel translations of the active images (Section 6.3). The map from
// the classifiers' held-out latents to class probabilities, which Train
// and TrainMulti fit (Result.Calibration), is package calib's.
//
// The hot path is the inclusion pass: every batch is scored against the
// active set A with one cross-covariance block K(batch, A) and one
// triangular solve with many right-hand sides per fixed-size chunk of the
// batch (package score), the chunks shared among worker goroutines.
// Memory is O(M² + batch·M); N·M is never formed (except by IVM, whose
// O(N·M) storage is part of that method's definition).
//
// Results depend only on the seed: the chunks are fixed and independent of
// the number of workers, so the same seed gives the same active set,
// hyperparameters and predictions for any Options.Threads. Because a
// row's score depends only on its chunk, the scoring can run elsewhere:
// training rows that implement score.Remote get each scoring job
// (score.Job, which serialises the posterior's prediction state) and hand
// parts of the rows that start at multiples of score.Chunk to workers,
// whose score.Job.Score gives the scores bit for bit.
package passgp
