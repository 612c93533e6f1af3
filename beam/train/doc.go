// Package train runs the scoring of passgp-fast's training on Apache
// Beam: Remote is a passgpfast.RemoteScorer whose every call (a
// batch's candidates, or the held-out points of a classifier) is one
// Beam pipeline. The driver (passgpfast.FitBinary with
// passgpfast.WithRemoteScorer) keeps EP on the active set, the selection
// rule and the calibration; the pipeline's workers score the rows.
//
// A call splits its list of rows into parts that start at multiples of
// score.Chunk within the list, the chunks in which training
// scores, deals the parts into Workers groups (scored side by side),
// and hands the workers the task's bytes (the posterior, kernel and
// input scaling: passgpfast.ScoreTask) as a side input. Each worker
// opens the binary data file once per bundle, scores its parts with
// passgpfast.Task.Score and writes each part's results to a
// checksummed part file; the driver merges them in row order and
// removes them. Every row goes through the computation that training
// in one process gives it, on the same chunk, so the trained classifier
// is FitBinary's without a remote scorer, bit for bit.
//
// Use:
//
//	r, err := train.New(ctx, train.Options{Data: "train.pgd", Workers: 4})
//	if err != nil { ... }
//	defer r.Close()
//	src, err := data.OpenBinary(ctx, "train.pgd", data.BinaryOptions{})
//	...
//	clf, err := passgpfast.FitBinary(ctx, src, passgpfast.WithRemoteScorer(r))
//
// Options.Execute nil runs each pipeline on Beam's Prism runner in this
// process (beam.Init must have been called), whose loopback workers are
// goroutines of this process; another runner needs a Data path and a
// Dir that its workers can reach. Remote is safe for concurrent calls:
// the classes of a one-vs-rest run train side by side, each call its own
// pipeline. A cancelled context stops the workers in this process
// within one chunk and the call returns the context's error.
package train
