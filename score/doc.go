// Package score computes the predictive latent means and variances
// (paper eq. 4) of many rows under an EP posterior on an active set A:
// the scoring that PASS-GP's inclusion pass runs on every batch, that the
// held-out stage runs on the training points, and that prediction runs
// on test points.
//
// Rows are scored in fixed chunks of Chunk rows, each with one Gram block
// K(chunk, A) and one triangular solve with Chunk right-hand sides
// (ep.Posterior.PredictCrossTo), the chunks handed out to worker
// goroutines (Runner). Cost is O(rows·M²) for M active inputs, memory
// O(threads·Chunk·(M+d)) beyond the outputs.
//
// Why chunks of a fixed size: they fix the split of the work, so the
// results do not depend on the number of threads, and a row's score
// depends on the other rows of its chunk only through the shape of the
// BLAS calls; so a part of a list of rows that starts at a multiple of
// Chunk, scored on its own, gives bit for bit what scoring the whole list
// gives. That is what lets a data-parallel pipeline score on its workers
// (Remote): the trainer hands it a Job, which serialises the posterior's
// prediction state (MarshalBinary, UnmarshalJob), and the workers' Score
// of such parts gives the trainer's own scores.
//
// A Screen skips the variance of candidates whose fate under PASS-GP's
// inclusion rule the mean alone decides.
package score
