// Package ivm implements the informative vector machine (Lawrence, Seeger
// & Herbrich 2003), the greedy active set selection that the paper
// compares PASS-GP with (Section 6.1): points are included one at a time
// by the differential entropy score, each with an ADF site, at a fixed
// kernel (Select), and θ is chosen on the selected set by the evidence with
// those sites held fixed (SiteEvidence, Optimize). Package passgp
// alternates the two (Method IVM).
package ivm
