package passgp

import "math"

// keptTheta is the θ that PASS-GP keeps from the first batch in which its
// budget binds (State.Frozen): the geometric mean of the θ of every batch
// so far that optimised it, stats (nil if none did). Each batch's θ is a
// noisy step of a few evaluations on a changing A, and the average of such
// iterates is the estimate of stochastic approximation (Polyak & Juditsky
// 1992); the mean of log θ stays inside the searches' log-space box
// (docs/method.md, Section 2; docs/decisions.md).
func keptTheta(stats []BatchStats) []float64 {
	var sum []float64
	n := 0
	for _, b := range stats {
		if b.HypEvals == 0 {
			continue
		}
		if sum == nil {
			sum = make([]float64, len(b.Theta))
		}
		for j, v := range b.Theta {
			sum[j] += math.Log(v)
		}
		n++
	}
	for j := range sum {
		sum[j] = math.Exp(sum[j] / float64(n))
	}
	return sum
}
