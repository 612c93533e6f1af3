// Package score runs a passgp-fast classifier's per-point scoring as an
// Apache Beam pipeline: the driver splits a binary data file (written by
// `passgp-fast convert`) into shards of contiguous rows, the workers each
// read their shards' rows and score them with the model (passed to them
// as a side input, its bytes), write each shard's results to a shard
// file, and the driver merges the shard files in row order.
//
// The workers score with the classifier's serving view
// (passgpfast.Classifier.Serving): on one goroutine, no BLAS call, one
// core per worker. Shards start at multiples of Align rows, the chunk in
// which the root package's Predict scores, and the workers score them in
// pieces of Align rows, so every row goes through the same computation,
// on the same chunk, as in the serving view's in-process Predict on the
// whole file: the merged results are bit for bit
// Serving().PredictDataset's. They agree with the default view's
// (what `passgp-fast predict` writes) within rounding, as the serving
// view does.
//
// Scorer is the worker's function, independent of Beam: a model's bytes
// and a block of rows in, per-row class probabilities, decisions and
// (optionally) each binary classifier's latent mean and variance out
// (paper eq. 4). Run builds the pipeline, runs it (in-process on Beam's
// Prism runner unless Options.Execute says otherwise) and merges.
package score
