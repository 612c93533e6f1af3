package passgp

import (
	"fmt"
	"math"
	"time"
)

// State is a resumable snapshot of the active set loop, made of plain
// exported fields so that it can be stored with encoding/gob.
type State struct {
	Method Method
	Class  float64   // positive class label in TrainMulti (0 in Train)
	N, D   int       // training data shape (checked on resume)
	Theta  []float64 // current θ
	Active []int     // A, indices into the training data
	// Frozen is set once PASS-GP's budget (Options.MaxActive) has bound:
	// θ is no longer optimised, and Theta is keptTheta's (see
	// Options.MaxActive).
	Frozen  bool
	Tau, Nu []float64 // EP sites of A (new points: zero)
	// Perm[Bounds[j]:Bounds[j+1]] is batch j.
	Perm        []int32
	Bounds      []int
	Pass, Batch int // next batch to process
	Done        int // batches processed so far (for HypEvery)
	Stats       []BatchStats
	Elapsed     time.Duration
}

// Check reports whether s is a consistent snapshot of a run on n×d data:
// its shape and method, Perm a permutation of 0..n-1 cut into batches by
// Bounds (0 = Bounds[0] <= ... <= Bounds[last] = n), Pass, Batch and Done
// within range, Active distinct indices of the data with one finite site
// each (τ̃ >= 0), and θ positive and finite. Resuming from a snapshot that
// passes Check cannot index out of range, whatever the file it came from.
func (s *State) Check(n, d int) error {
	nb := len(s.Bounds) - 1
	switch {
	case s.N != n || s.D != d:
		return fmt.Errorf("passgp: state is for %d×%d data, got %d×%d", s.N, s.D, n, d)
	case s.Method < PASSGP || s.Method > Full:
		return fmt.Errorf("passgp: state has an invalid method %d", int(s.Method))
	case len(s.Perm) != n:
		return fmt.Errorf("passgp: state permutation has %d entries for %d points", len(s.Perm), n)
	case nb < 1 || s.Bounds[0] != 0 || s.Bounds[nb] != n:
		return fmt.Errorf("passgp: state batch bounds %v do not cover 0..%d", truncInts(s.Bounds), n)
	case s.Pass < 0 || s.Batch < 0 || s.Batch >= nb || s.Done < 0:
		return fmt.Errorf("passgp: state at pass %d, batch %d (of %d), %d done", s.Pass, s.Batch, nb, s.Done)
	case len(s.Tau) != len(s.Active) || len(s.Nu) != len(s.Active):
		return fmt.Errorf("passgp: state has %d active points but %d/%d sites", len(s.Active), len(s.Tau), len(s.Nu))
	}
	for j := 1; j <= nb; j++ {
		if s.Bounds[j] < s.Bounds[j-1] {
			return fmt.Errorf("passgp: state batch bounds %v decrease", truncInts(s.Bounds))
		}
	}
	seen := make([]bool, n)
	for _, i := range s.Perm {
		if i < 0 || int(i) >= n || seen[i] {
			return fmt.Errorf("passgp: state permutation repeats or exceeds index %d", i)
		}
		seen[i] = true
	}
	clear(seen)
	for k, a := range s.Active {
		if a < 0 || a >= n || seen[a] {
			return fmt.Errorf("passgp: state active index %d out of range or repeated", a)
		}
		seen[a] = true
		if !(s.Tau[k] >= 0) || math.IsInf(s.Tau[k], 0) || math.IsNaN(s.Nu[k]) || math.IsInf(s.Nu[k], 0) {
			return fmt.Errorf("passgp: state site %d has tau = %v, nu = %v", k, s.Tau[k], s.Nu[k])
		}
	}
	for _, t := range s.Theta {
		if !(t > 0) || math.IsInf(t, 0) {
			return fmt.Errorf("passgp: state hyperparameters %v are not positive and finite", s.Theta)
		}
	}
	return nil
}

// truncInts returns v, or its first 8 entries, for an error message.
func truncInts(v []int) []int { return v[:min(len(v), 8)] }
