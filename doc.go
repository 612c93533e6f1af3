// Package passgpfast is the passgp-fast product as a library: one call
// from labelled data to a trained, calibrated Gaussian process classifier
// (PASS-GP, Henao & Winther 2012, by default), the same one that
// `passgp-fast train` writes, and the predictions that `passgp-fast
// predict` writes.
//
// Fit (or FitDataset) with no options applies train's defaults exactly:
// the input scaling decided from the data (Config.Scale "auto"), the
// default kernel of the method (se+bias for PASS-GP and IVM), a binary
// classifier for two labels and one against the rest for more, PASS-GP's
// budget on the active set, the calibration fitted on the training
// points' held-out predictions, the training history and a held-out
// estimate of the test error that needs no test data. Options change any
// of it (WithConfig, WithMethod, WithSeed, ...) and observe training
// (WithProgress, WithReport); WithCheckpoint makes a run resumable
// (WithResume).
//
// A Classifier predicts calibrated class probabilities (PredictProbaTo),
// decisions (DecideTo), the paper's raw q(y=+1|x) (RawTo) and each binary
// classifier's latent predictive mean and variance (LatentMeanVarTo), and,
// with an ARD kernel, the learned relevance of each input feature
// (Relevances). It is
// saved and loaded in package model's versioned, checksummed file format
// (Save, SaveFile, Load, LoadFile), so a loaded classifier predicts bit
// for bit what the trained one did. PredictSource and EvaluateSource
// predict and score a data.Source (a binary data file larger than memory,
// say) a batch of rows at a time, with Predict's and Evaluate's results
// bit for bit for batches of whole PredictChunk blocks.
//
// A Classifier is safe for concurrent use: its prediction methods only
// read it, and concurrent calls take turns at multi-threaded BLAS work
// instead of contending for OpenBLAS's threads; Classifier's
// documentation gives this serving policy and its one process-wide
// alternative, which is the application's to choose.
//
// FitBinary can run its scoring elsewhere (WithRemoteScorer): each
// scoring call hands a RemoteScorer a task, the input scaling and
// the scoring job (package score) as bytes, whose workers score rows of the same
// binary data file with ScoreTask; the classifier is the same, bit for
// bit. Package train of the beam module runs them as Beam pipelines.
//
// Imports point one way: the command line (internal/cli, the program
// cmd/passgp-fast) uses this package,
// which uses passgp, model, calib and data; passgp uses score (the
// scoring stage), calib (the calibration stage) and ivm (the IVM
// baseline's selection); score and ivm use ep, kernel and la; calib uses
// la only.
package passgpfast
