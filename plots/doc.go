// Package plots draws the figures of passgp-fast as PNG files with
// gonum/plot: per-class test error and active set size, test error against
// active set size (or p_inc), the predictive probability densities of
// correct and incorrect test predictions (Henao & Winther, Figure 5), a
// reliability (calibration) diagram, training trajectories and the
// feature relevances of an ARD kernel.
//
// The package takes plain slices and imports nothing else of this module,
// so it can draw results from any source. Every function validates its
// input and returns an error instead of panicking.
package plots
