// Package model reads and writes passgp-fast model files and training
// checkpoints (docs/model-format.md).
//
// A model file holds everything prediction needs: per binary classifier
// the kernel name, θ, polynomial degree and scale, the active inputs and
// labels, their training-set indices and the EP site parameters; the class
// labels and how classifiers map to them (Mode); and the training options
// as JSON. Load rebuilds every posterior with ep.FromSites, the call that
// training uses for its final posterior, so a loaded model predicts bit
// for bit what the trained one did.
//
// Files are framed by magic bytes, a format version and a SHA-256 over
// header and payload, little-endian throughout, and written atomically
// (temporary file, fsync, rename, directory fsync). Truncated, corrupted,
// foreign and newer-version files give errors wrapping ErrTruncated,
// ErrCorrupt, ErrMagic and ErrVersion that name the file; inconsistent
// payloads give ErrPayload. The decoders never panic (FuzzLoad,
// FuzzCheckpoint).
package model
