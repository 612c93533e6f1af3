// Package cli is the passgp-fast command line: train, predict, eval,
// demo, plot and convert (docs/cli.md). It trains, applies and evaluates
// Gaussian process classifiers with PASS-GP / fPASS-GP (Henao & Winther,
// Neurocomputing 2012) through the root package passgpfast.
//
// Main runs a command line as a program does; cmd/passgp-fast is a main
// that calls it, and other programs (the Beam module's passgp-fast-beam)
// call it with training engines of their own.
package cli
